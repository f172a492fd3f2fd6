"""The expert Corruptia bot's own rules: it stays absent for a swap worth more than the token and its
margin; it offers a Crony for its vote once a turn when enough is at stake; it weighs a department by its
cards less the average opponent's expected holding; it proposes the bill that gains it most less what the
card is worth in its hand. Its spec, legal play, no-peeking and strength
checks: tests/core/test_expert_bots.py."""
import numpy as np

import corruption_envs
from corruption_envs.corruptia import ExpertAgent, HeuristicAgent
from corruption_envs.corruptia.codec import BLACKMAIL, OFFER, PASS_ACTION, VOTE0
from corruption_envs.corruptia.heuristic import average_opponent, hand_counts, read_table
from corruption_envs.corruptia.observer import MAX_HAND, PLAYER_FEATURES
from corruption_envs.corruptia.state import ABSENT, BILL, CRONY, NEGOTIATE, VOTE, YES
from corruption_envs.corruptia.tables import DEPT, NUM_CARDS
from tests.corruptia.helpers import game, pass_all, propose


def a_vote(zone_value: int, tokens: int = 1):
    """A voter's observation and mask: its weakest department worth 0, the discard zone's one card of a
    department worth `zone_value`."""
    rules, s = game(4, seed=3)
    s.tokens = [tokens] * 4
    propose(rules, s)
    pass_all(rules, s)
    assert s.phase == VOTE
    lay, mask = rules.observation_layout, rules.legal_mask(s)
    obs = rules.observe(s, s.actor)
    hand = np.flatnonzero(obs[lay["my_hand"]]).tolist()
    values, zone = obs[lay["department_values"]], obs[lay["discard_zone"]]
    values[:] = 0
    strong = next(c for c in range(NUM_CARDS) if DEPT[c] != DEPT[hand[0]] and c not in hand)
    values[DEPT[strong]] = zone_value / 200
    zone[:] = 0
    zone[strong] = 1
    return obs, mask


def test_it_is_absent_when_the_swap_gains_more_than_the_token_and_its_margin():
    env = corruption_envs.env("corruptia", num_players=4)
    expert, heuristic = ExpertAgent(env, seed=0), HeuristicAgent(env, seed=0)
    obs, mask = a_vote(zone_value=30)  # 30 points for a 5-point token
    assert expert.act(obs, mask) == VOTE0 + ABSENT
    assert heuristic.act(obs, mask) != VOTE0 + ABSENT  # the heuristic votes whatever the zone offers
    obs, mask = a_vote(zone_value=12)  # more than the token, not by the margin
    assert expert.act(obs, mask) != VOTE0 + ABSENT
    obs, mask = a_vote(zone_value=30, tokens=0)  # only a seat with a token may be absent
    assert not mask[VOTE0 + ABSENT] and expert.act(obs, mask) != VOTE0 + ABSENT


def a_negotiation(my_cards_of_the_bill: bool):
    """The proposer's first negotiating move, its hand holding every other card of the bill's department
    or not (a large stake in the bill or a small one)."""
    rules, s = game(4, seed=3)
    propose(rules, s)
    assert s.phase == NEGOTIATE and s.actor == s.proposer
    lay = rules.observation_layout
    obs, mask = rules.observe(s, s.actor), rules.legal_mask(s)
    assert not mask[BLACKMAIL[1, YES]]  # nobody holds a token yet: no blackmail comes first
    if my_cards_of_the_bill:
        obs[lay["my_hand"]][[c for c in range(NUM_CARDS) if DEPT[c] == DEPT[s.bill] and c != s.bill]] = 1
    return obs, mask, lay


def test_it_offers_a_crony_for_its_vote_once_a_turn_when_enough_is_at_stake():
    env = corruption_envs.env("corruptia", num_players=4)
    expert, heuristic = ExpertAgent(env, seed=0), HeuristicAgent(env, seed=0)
    obs, mask, lay = a_negotiation(my_cards_of_the_bill=True)
    assert expert.act(obs, mask) == OFFER[1, CRONY, YES]  # to the next seat: the proposer votes YES itself
    assert heuristic.act(obs, mask) == PASS_ACTION
    obs[lay["offers_now"]][0] = 1  # an offer of mine this turn already
    assert expert.act(obs, mask) == PASS_ACTION
    obs, mask, _ = a_negotiation(my_cards_of_the_bill=False)
    assert expert.act(obs, mask) == PASS_ACTION


def test_the_average_opponent_holds_the_opponents_mean_hand_spread_over_the_unseen_cards():
    env = corruption_envs.env("corruptia", num_players=4)
    expert = ExpertAgent(env, seed=0)
    obs, _, lay = a_negotiation(my_cards_of_the_bill=False)
    sizes = obs[lay["players"]].reshape(-1, PLAYER_FEATURES)[1:4, 3] * MAX_HAND
    table = read_table(obs, expert.at, expert.cell_lookup)
    average = average_opponent(obs, expert.at, table, hand_counts(obs, expert.at), 4)
    assert np.isclose(average.sum(), sizes.mean()) and (average >= 0).all()


def a_proposal(worth: dict[int, int]):
    """The proposer's choice of a bill from a hand of departments 1, 1, 2, 3 and 4, the departments worth
    `worth` points today (the others 0)."""
    rules, s = game(4, seed=3)
    assert s.phase == BILL
    lay = rules.observation_layout
    obs, mask = rules.observe(s, s.actor), rules.legal_mask(s)
    assert sorted(DEPT[c] for c in np.flatnonzero(mask)) == [1, 1, 2, 3, 4]
    obs[lay["department_values"]] = 0
    for dept, points in worth.items():
        obs[lay["department_values"]][dept] = points / 200
    return obs, mask


def test_it_keeps_the_cards_of_a_department_worth_much_and_proposes_a_cheap_one():
    env = corruption_envs.env("corruptia", num_players=4)
    expert, heuristic = ExpertAgent(env, seed=0), HeuristicAgent(env, seed=0)
    obs, mask = a_proposal({1: 100})  # the department it holds most of is worth much: keep its cards
    assert DEPT[expert.act(obs, mask)] != 1
    assert DEPT[heuristic.act(obs, mask)] == 1  # the heuristic proposes the department it holds most of
    obs, mask = a_proposal({2: 100, 3: 100, 4: 100})  # now department 1's cards are the cheap ones
    assert DEPT[expert.act(obs, mask)] == 1
