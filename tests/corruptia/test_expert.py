"""The expert Corruptia bot's own rules: it stays absent for a swap worth more than the token and its
margin. Its spec, legal play, no-peeking and strength checks: tests/core/test_expert_bots.py."""
import numpy as np

import corruption_envs
from corruption_envs.corruptia import ExpertAgent, HeuristicAgent
from corruption_envs.corruptia.codec import VOTE0
from corruption_envs.corruptia.state import ABSENT, VOTE
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
