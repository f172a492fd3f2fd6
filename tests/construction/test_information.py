"""Hidden information: private cash and cards, secret gifts, resample_hidden, exact masks."""
import numpy as np
import pytest

from corruption_envs.construction import codec
from corruption_envs.construction.invariants import check_invariants
from corruption_envs.construction.observer import MONEY_SCALE, SEAT_FEATURES
from corruption_envs.construction.state import CARDS, GIFT, MAYOR, OVER, PAY, PLACE, VOTE
from corruption_envs.construction.tables import (
    BIG_PAPA, CUT_AND_PASTE, DEEP_MERDE, GIFT_AMOUNTS, LA_GREVE, RED_ALERT, REVENUE_QUEBEC, SNITCH,
    SPIC_N_SPAN,
)

from .helpers import act, fresh, give_cards, offset, pass_placing, to_investigation

CASH = SEAT_FEATURES.index("cash_known")


def random_states(n, seed, every=1, **config):
    rules, s = fresh(n, seed, **config)
    rng = np.random.default_rng(seed)
    k = 0
    while s.phase != OVER:
        if k % every == 0:
            yield rules, s
        rules.apply(s, int(rng.choice(np.flatnonzero(rules.legal_mask(s)))))
        k += 1


def test_another_players_cash_never_changes_my_observation():
    for rules, s in random_states(4, 0, every=7):
        for me in range(4):
            seen = rules.observe(s, me)
            t = s.copy()
            for q in range(4):
                if q != me:
                    t.cash[q] += 13
            np.testing.assert_array_equal(rules.observe(t, me), seen)


def test_another_players_cards_never_change_my_observation():
    for rules, s in random_states(5, 1, every=7):
        for me in range(5):
            seen = rules.observe(s, me)
            t = s.copy()
            for q in range(5):
                if q != me and sum(t.hand[q]):
                    known = t.known[me][q]
                    # swap one card I do not know about for a La Greve / Snitch, size unchanged
                    spare = [ty for ty in range(8) if t.hand[q][ty] > known[ty]]
                    if spare:
                        t.hand[q][spare[0]] -= 1
                        t.hand[q][LA_GREVE if spare[0] != LA_GREVE else SNITCH] += 1
            np.testing.assert_array_equal(rules.observe(t, me), seen)


def test_my_own_cash_and_cards_are_in_my_observation():
    rules, s = fresh(4, 2)
    give_cards(s, 1, SNITCH, 2)
    lay = rules.observation_layout
    obs = rules.observe(s, 1)
    assert lay.view(obs, "my_cash")[0] == pytest.approx(s.cash[1] / MONEY_SCALE)
    assert lay.view(obs, "my_hand")[SNITCH] == pytest.approx(2 / 11)
    assert lay.view(rules.observe(s, 0), "seats")[1, SEAT_FEATURES.index("hand_size")] == pytest.approx(0.2)


def test_secret_gift_amounts_are_seen_by_giver_and_receiver_only():
    views = {}
    for amount_index in range(3):
        rules, s = fresh(4, 3)
        p = s.actor
        assert s.cash[p] == 10  # $100k for the first contract
        q = (p + 1) % 4
        act(rules, s, codec.ACTIONS.encode("gift", amount=amount_index, seat=1))
        views[amount_index] = {o: rules.observe(s, o) for o in range(4)}
        third = (p + 2) % 4
        seats = rules.observation_layout.view(views[amount_index][third], "seats")
        assert seats[(q - third) % 4, SEAT_FEATURES.index("unseen_gifts_in")] == pytest.approx(0.2)
    third = (p + 2) % 4
    np.testing.assert_array_equal(views[0][third], views[2][third])
    assert not np.array_equal(views[0][q], views[2][q])


def test_public_gifts_option_shows_the_amount_to_all():
    rules, s = fresh(4, 4, secret_gifts=False)
    p = s.actor
    act(rules, s, codec.ACTIONS.encode("gift", amount=1, seat=1))  # $50k: every player has $100k in 1994
    q = (p + 1) % 4
    third = (p + 2) % 4
    seats = rules.observation_layout.view(rules.observe(s, third), "seats")
    assert seats[(q - third) % 4, CASH] == pytest.approx(s.cash[q] / MONEY_SCALE)
    assert seats[(p - third) % 4, CASH] == pytest.approx(s.cash[p] / MONEY_SCALE)


def test_resample_keeps_my_view_and_redraws_opponent_hands_and_the_deck():
    rules, s = fresh(4, 5)
    for p in range(4):
        give_cards(s, p, SNITCH)
        give_cards(s, p, DEEP_MERDE)
    hands = set()
    for seed in range(20):
        t = rules.resample_hidden(s, 0, np.random.default_rng(seed))
        check_invariants(rules, t)
        np.testing.assert_array_equal(rules.observe(t, 0), rules.observe(s, 0))
        np.testing.assert_array_equal(rules.legal_mask(t), rules.legal_mask(s))
        assert t.hand[0] == s.hand[0]
        assert [sum(h) for h in t.hand] == [sum(h) for h in s.hand]
        hands.add(tuple(tuple(h) for h in t.hand[1:]))
    assert len(hands) > 5


def test_resample_keeps_cards_i_know_an_opponent_holds():
    rules, s = fresh(3, 6)
    give_cards(s, 0, CUT_AND_PASTE)
    give_cards(s, 1, RED_ALERT)
    to_investigation(rules, s)
    while s.actor != 0:
        act(rules, s, codec.PASS)
    act(rules, s, codec.CUT_AND_PASTE + offset(s, 0, 1) - 1)
    # seat 1 knows seat 0 holds the Red Alert; seat 2 knows seat 1 holds the Cut & Paste
    for seed in range(10):
        t = rules.resample_hidden(s, 1, np.random.default_rng(seed))
        assert t.hand[0][RED_ALERT] == 1
        u = rules.resample_hidden(s, 2, np.random.default_rng(seed))
        assert u.hand[1][CUT_AND_PASTE] == 1


def test_resample_redraws_votes_already_cast_in_the_running_election():
    rules, s = fresh(4, 7)
    pass_placing(rules, s)
    for _ in range(3):
        act(rules, s, codec.VOTE)  # three seats vote for themselves
    last = s.actor
    seen = set()
    for seed in range(20):
        t = rules.resample_hidden(s, last, np.random.default_rng(seed))
        np.testing.assert_array_equal(rules.observe(t, last), rules.observe(s, last))
        seen.add(tuple(t.votes))
    assert len(seen) > 3


def test_resample_redraws_secret_gift_amounts_consistently():
    rules, s = fresh(4, 8, max_gifts=1)
    giver = s.actor
    receiver = (giver + 1) % 4
    act(rules, s, codec.ACTIONS.encode("gift", amount=0, seat=1))  # $10k secretly
    me = (giver + 2) % 4
    amounts = set()
    for seed in range(30):
        t = rules.resample_hidden(s, me, np.random.default_rng(seed))
        np.testing.assert_array_equal(rules.observe(t, me), rules.observe(s, me))
        check_invariants(rules, t)
        gift = next(e for e in t.ledger if e[0] == GIFT)
        amounts.add(gift[3])
        assert t.cash[giver] + t.cash[receiver] == s.cash[giver] + s.cash[receiver]
    assert amounts == set(GIFT_AMOUNTS)  # each player had $100k: every amount is possible
    # the giver and receiver know the amount: their resamples keep it
    for seed in range(5):
        t = rules.resample_hidden(s, receiver, np.random.default_rng(seed))
        assert next(e for e in t.ledger if e[0] == GIFT)[3] == 1


def test_resample_respects_a_revealed_cash():
    rules, s = fresh(4, 9, max_gifts=1)
    giver = s.actor
    receiver = (giver + 1) % 4
    act(rules, s, codec.ACTIONS.encode("gift", amount=1, seat=1))  # $50k
    from corruption_envs.construction import money
    money.reveal(s, receiver)  # now everybody knows the receiver's cash: the amount is pinned
    me = (giver + 2) % 4
    for seed in range(10):
        t = rules.resample_hidden(s, me, np.random.default_rng(seed))
        assert next(e for e in t.ledger if e[0] == GIFT)[3] == 5


def reference_legal(s):
    """The legal actions, written out again from the rules text (slow and plain)."""
    n, p = s.n, s.actor
    on = [c for c in range(18) if s.owner[c] >= 0]
    out = set()
    gifts = set()
    if s.gifts_left[p]:
        gifts = {codec.ACTIONS.encode("gift", amount=i, seat=k) for i, a in enumerate(GIFT_AMOUNTS) if a <= s.cash[p] for k in range(1, n)}
    if s.phase == PLACE:
        out = {codec.PASS} | gifts | ({codec.PLACE + c for c in on} if s.to_place[p] else set())
    elif s.phase == VOTE:
        out = {codec.VOTE + k for k in range(n)} | {codec.OUTSIDER} | gifts
    elif s.phase == MAYOR:
        out = {codec.PASS}
        if s.city_left:
            out |= {codec.CITY + c for c in on}
        if s.fest_left:
            out |= {codec.FESTIVAL + c for c in on if not s.festival[c]}
        if s.hand[p][BIG_PAPA]:
            out.add(codec.BIG_PAPA)
    elif s.phase == CARDS:
        h = s.hand[p]
        out = {codec.PASS} | gifts
        pairs = {i for i, (a, b) in enumerate(codec.PAIRS) if b < n}
        if h[CUT_AND_PASTE] and not s.cut_used:
            out |= {codec.CUT_AND_PASTE + k - 1 for k in range(1, n) if sum(s.hand[(p + k) % n])}
        if h[DEEP_MERDE]:
            out |= {codec.DEEP_MERDE + k - 1 for k in range(1, n)}
        if h[LA_GREVE]:
            out.add(codec.LA_GREVE)
        if h[RED_ALERT]:
            out |= {codec.RED_ALERT + k - 1 for k in range(1, n)}
        if h[REVENUE_QUEBEC]:
            out |= {codec.REVENUE_QUEBEC + i for i in pairs}
        if h[SPIC_N_SPAN]:
            out |= {codec.SPIC_N_SPAN + c for c in on if s.corruption[c]}
        if h[SNITCH]:
            out |= {codec.SNITCH + i for i in pairs}
    elif s.phase == PAY:
        out = {codec.PAY_FIXED, codec.PAY_PERCENT}
    return out


@pytest.mark.parametrize("n, investigation_gifts", [(3, False), (5, True), (7, False)])
def test_mask_is_exactly_the_legal_actions(n, investigation_gifts):
    for seed in range(6):
        for rules, s in random_states(n, 100 + seed, max_gifts=2, investigation_gifts=investigation_gifts):
            mask = rules.legal_mask(s)
            assert set(int(a) for a in np.flatnonzero(mask)) == reference_legal(s)
            assert mask.dtype == np.int8 and mask.any()


def test_a_players_seat_order_does_not_leak_hidden_cash():
    """Nobody is skipped for lack of money: a broke player with a gift left is still asked."""
    rules, s = fresh(4, 10)
    p = s.actor
    s.to_place[p] = 0
    s.cash[p] = 0
    rules._next_placer(s, p)
    assert s.actor == p and set(np.flatnonzero(rules.legal_mask(s))) == {codec.PASS}
