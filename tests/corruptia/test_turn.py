"""Phases 3-5: negotiation (blackmail and the rulings' binding vote offers), the secret vote and its
resolution, public opinion with the seed's table and special cases, and the absent players' swaps."""
import numpy as np
import pytest

from corruption_envs.corruptia.state import (ABSENT, CRONY, NEGOTIATE, NO, SWAP_GIVE, SWAP_TAKE, TOKEN,
                                             VOTE, YES)
from corruption_envs.corruptia.rules import APPROVED_BY_COIN, REJECTED_BY_COIN
from corruption_envs.corruptia.tables import DEPT, REVOLUTION
from corruption_envs.corruptia.codec import ACTIONS, BLACKMAIL, KEEP_HAND, OFFER, PASS_ACTION, VOTE0

from .helpers import game, legal, pass_all, propose, vote


def at_negotiation(n=4, seed=0, tokens=None, **config):
    rules, s = game(n, seed=seed, **config)
    if tokens is not None:
        s.tokens = list(tokens)
    propose(rules, s)
    assert s.phase == NEGOTIATE
    return rules, s


def at_vote(n=4, seed=0, tokens=None, die=None):
    rules, s = at_negotiation(n, seed, tokens)
    pass_all(rules, s)
    if die is not None:
        s.die = die
    return rules, s


def neutral_die(s):
    """A die face that is neither the bill's department nor R."""
    return (DEPT[s.bill] + 1) % 5


# --- negotiation ------------------------------------------------------------------------------------
def test_negotiation_goes_round_from_the_proposer_and_ends_when_everyone_has_passed_in_a_row():
    rules, s = at_negotiation(tokens=[1, 1, 1, 1])
    p = s.proposer
    rules.apply(s, PASS_ACTION)
    rules.apply(s, PASS_ACTION)
    assert s.actor == (p + 2) % 4
    rules.apply(s, BLACKMAIL[1, YES])  # an action restarts the count
    for _ in range(3):
        rules.apply(s, PASS_ACTION)
    assert s.phase == NEGOTIATE
    rules.apply(s, PASS_ACTION)
    assert s.phase == VOTE and s.actor == p


def test_a_player_whose_only_move_is_to_pass_is_not_asked():
    rules, s = game(4, seed=0, vote_offers=False)
    propose(rules, s)
    # at the start nobody has tokens, so nobody can be blackmailed; offers are off: straight to the vote
    assert s.phase == VOTE
    rules, s = game(4, seed=0)
    propose(rules, s)
    assert s.phase == NEGOTIATE and s.actor == s.proposer  # with offers, everyone holds Cronies


def test_blackmail_is_not_allowed_on_a_player_without_tokens():
    rules, s = at_negotiation(tokens=[0, 0, 0, 0])
    rules_b, s_b = at_negotiation(tokens=[1, 1, 1, 1])
    for k in (1, 2, 3):
        assert BLACKMAIL[k, YES] not in legal(rules, s)
        assert BLACKMAIL[k, YES] in legal(rules_b, s_b)


def test_a_senator_receives_at_most_one_blackmail_card_a_turn():
    rules, s = at_negotiation(tokens=[2, 2, 2, 2])
    a = s.actor
    target = (a + 2) % 4
    rules.apply(s, BLACKMAIL[2, NO])
    b = s.actor
    assert BLACKMAIL[(target - b) % 4, YES] not in legal(rules, s)
    assert BLACKMAIL[(target - b) % 4, NO] not in legal(rules, s)
    # but a player may use several cards on different targets in the same turn
    rules.apply(s, PASS_ACTION)
    rules.apply(s, PASS_ACTION)
    rules.apply(s, PASS_ACTION)
    assert s.actor == a and BLACKMAIL[1, YES] in legal(rules, s)


def test_the_proposer_can_be_blackmailed_with_the_card_of_their_party_only():
    rules, s = at_negotiation(tokens=[1, 1, 1, 1])
    p = s.proposer
    rules.apply(s, PASS_ACTION)
    assert BLACKMAIL[3, NO] in legal(rules, s)  # seat p+1 -> p is 3 seats to the left
    s.held[s.actor][p] = False  # without the card of p's party, p cannot be blackmailed
    assert BLACKMAIL[3, NO] not in legal(rules, s)


def test_used_blackmail_cards_leave_the_game_whether_obeyed_or_not():
    for obey in (True, False):
        rules, s = at_negotiation(tokens=[2, 2, 2, 2])
        a = s.actor
        t = (a + 1) % 4
        rules.apply(s, BLACKMAIL[1, NO])
        pass_all(rules, s)
        s.die = neutral_die(s)
        vote(rules, s, {t: NO if obey else YES})
        assert not s.held[a][t]
        assert s.tokens[t] == (2 if obey else 1)


def test_a_vote_offer_is_binding_and_paid_only_to_a_player_who_votes_as_asked():
    for complied in (True, False):
        rules, s = at_negotiation(tokens=[1, 1, 1, 1])
        a = s.actor
        t = (a + 1) % 4
        rules.apply(s, OFFER[1, CRONY, NO])
        pass_all(rules, s)
        s.die = neutral_die(s)
        reserve = s.reserve[:]
        vote(rules, s, {t: NO if complied else YES})
        if complied:
            assert (s.reserve[t], s.reserve[a]) == (reserve[t] + 1, reserve[a] - 1)
        else:
            assert (s.reserve[t], s.reserve[a]) == (reserve[t], reserve[a])


def test_a_player_makes_one_offer_to_each_other_player_a_turn_and_cannot_promise_what_they_lack():
    rules, s = at_negotiation(tokens=[1, 1, 1, 1])
    a = s.actor
    rules.apply(s, OFFER[1, TOKEN, YES])
    for _ in range(3):
        rules.apply(s, PASS_ACTION)
    assert s.phase == NEGOTIATE and s.actor == a
    moves = legal(rules, s)
    assert OFFER[1, CRONY, YES] not in moves  # one offer to that player this turn
    assert OFFER[2, TOKEN, YES] not in moves  # my only token is already promised
    assert OFFER[2, CRONY, YES] in moves or s.reserve[a] == 0


def test_vote_offers_can_be_switched_off():
    rules, s = at_negotiation(tokens=[1, 1, 1, 1], vote_offers=False)
    assert not [a for a in legal(rules, s) if a in ACTIONS["offer"]]


# --- the vote -------------------------------------------------------------------------------------------
def test_everyone_votes_one_seat_at_a_time_from_the_proposer():
    rules, s = at_vote()
    p = s.proposer
    order = []
    while s.phase == VOTE:
        order.append(s.actor)
        rules.apply(s, VOTE0 + YES)
    assert order == [(p + k) % 4 for k in range(4)]  # the proposer votes too


def test_the_majority_of_those_present_decides():
    rules, s = at_vote(tokens=[1, 1, 1, 1])
    bill, x = s.bill, s.cell
    q = s.proposer
    vote(rules, s, {q: ABSENT, (q + 1) % 4: ABSENT, (q + 2) % 4: NO, (q + 3) % 4: NO})
    assert s.cell_card[x] == -1 and bill in s.discard
    rules, s = at_vote(tokens=[1, 1, 1, 1])
    q = s.proposer
    x, bill = s.cell, s.bill
    vote(rules, s, {q: YES, (q + 1) % 4: ABSENT, (q + 2) % 4: ABSENT, (q + 3) % 4: YES})
    assert s.cell_card[x] == bill


def test_a_tie_is_settled_by_tossing_the_presidential_token():
    outcomes = set()
    for seed in range(30):
        rules, s = at_vote(seed=seed)
        q = s.proposer
        vote(rules, s, {q: YES, (q + 1) % 4: YES, (q + 2) % 4: NO, (q + 3) % 4: NO})
        outcomes.add(s.last_result)
    assert outcomes == {APPROVED_BY_COIN, REJECTED_BY_COIN}


def test_when_everyone_is_absent_the_coin_decides():
    rules, s = at_vote(tokens=[1, 1, 1, 1])
    vote(rules, s, {q: ABSENT for q in range(4)})
    assert s.last_result in (APPROVED_BY_COIN, REJECTED_BY_COIN)


def test_only_players_with_tokens_can_be_absent():
    rules, s = at_vote(tokens=[0, 0, 0, 0])
    assert VOTE0 + ABSENT not in legal(rules, s)
    s.tokens[s.actor] = 1
    assert VOTE0 + ABSENT in legal(rules, s)


def test_votes_are_secret_an_earlier_vote_never_changes_a_later_voters_observation():
    for seed in range(5):
        rules, s = at_vote(seed=seed, tokens=[1, 1, 1, 1])
        views = []
        for v in (YES, NO, ABSENT):
            t = s.copy()
            rules.apply(t, VOTE0 + v)
            views.append([rules.observe(t, q) for q in range(4) if q != s.actor])
        for a, b in zip(views, views[1:]):
            for x, y in zip(a, b):
                np.testing.assert_array_equal(x, y)


def test_resample_hidden_redraws_the_earlier_secret_votes():
    rules, s = at_vote(tokens=[1, 1, 1, 1])
    first = s.actor
    rules.apply(s, VOTE0 + NO)
    seen = {rules.resample_hidden(s, s.actor, np.random.default_rng(k)).votes[first] for k in range(30)}
    assert seen == {YES, NO, ABSENT}
    assert {rules.resample_hidden(s, first, np.random.default_rng(k)).votes[first]
            for k in range(10)} == {NO}


# --- public opinion ------------------------------------------------------------------------------------
@pytest.mark.parametrize("my_vote, die, change", [
    (YES, "same", 1), (YES, "other", 0), (YES, "R", 0),
    (NO, "same", 0), (NO, "other", 0), (NO, "R", 1),
    (ABSENT, "same", -1), (ABSENT, "other", -1), (ABSENT, "R", -1),
])
def test_public_opinion_table(my_vote, die, change):
    rules, s = at_vote(tokens=[2, 2, 2, 2])
    s.die = {"same": DEPT[s.bill], "other": neutral_die(s), "R": REVOLUTION}[die]
    me = (s.proposer + 1) % 4
    vote(rules, s, {me: my_vote})
    assert s.tokens[me] == 2 + change


def test_disobeying_a_blackmail_costs_a_token():
    rules, s = at_negotiation(tokens=[1, 1, 1, 1])
    t = (s.actor + 1) % 4
    rules.apply(s, BLACKMAIL[1, NO])
    pass_all(rules, s)
    s.die = DEPT[s.bill]  # YES on the die's department would gain one: net 0
    vote(rules, s, {t: YES})
    assert s.tokens[t] == 1


@pytest.mark.parametrize("tokens, left", [(3, 1), (1, 0)])
def test_absent_and_disobeying_loses_two_tokens_but_not_below_zero(tokens, left):
    rules, s = at_negotiation(tokens=[tokens] * 4)
    t = (s.actor + 1) % 4
    rules.apply(s, BLACKMAIL[1, YES])
    pass_all(rules, s)
    s.die = neutral_die(s)
    vote(rules, s, {t: ABSENT})
    assert s.tokens[t] == left


# --- absent players' swaps ----------------------------------------------------------------------------
def test_several_absent_players_swap_in_turn_order_from_the_proposer():
    rules, s = at_vote(tokens=[1, 1, 1, 1])
    q = s.proposer
    absent = [(q + 3) % 4, (q + 1) % 4]
    vote(rules, s, {a: ABSENT for a in absent})
    order = []
    while s.phase in (SWAP_GIVE, SWAP_TAKE):
        order.append(s.actor)
        rules.apply(s, KEEP_HAND)
    assert order == [(q + 1) % 4, (q + 3) % 4]


def test_an_absent_player_discards_face_up_and_draws_another_card_from_the_discard_zone():
    rules, s = at_vote(tokens=[1, 1, 1, 1])
    a = (s.proposer + 2) % 4
    vote(rules, s, {a: ABSENT})
    assert s.phase == SWAP_GIVE and s.actor == a
    give_up = s.hands[a][0]
    rules.apply(s, give_up)
    assert s.phase == SWAP_TAKE and give_up in s.discard
    assert give_up not in legal(rules, s)  # "another" card
    take = [c for c in s.discard if c != give_up][0]
    assert set(legal(rules, s)) == set(s.discard) - {give_up}
    rules.apply(s, take)
    assert take in s.hands[a] and give_up in s.discard and len(s.hands[a]) == 5
    # everyone saw which card it was: it shows in every other seat's view of a's hand
    assert s.known_at[take] == a
    obs = rules.observe(s, (a + 1) % 4)
    lay = rules.observation_layout
    assert lay.view(obs, "known_hands")[2, take] == 1  # a sits 3 seats after the observer
