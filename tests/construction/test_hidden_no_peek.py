"""resample_hidden reads only the seat's information set, secret gift amounts included.

Two states that differ only in what seat `me` cannot see (other seats' secret gift amounts and so their
cash, their cards, the deck and stack order, cast votes) must give the same resample for the same rng,
at every player count, with secret gifts on; positions with many secret gifts (where a search for
consistent amounts is hard) included.
"""
from __future__ import annotations

import numpy as np
import pytest

from corruption_envs.construction import ConstructionRules, money
from corruption_envs.construction.hidden import consistent_amounts
from corruption_envs.construction.state import GIFT

COUNTS = (3, 4, 5, 6, 7)


def gift_heavy_positions(n, seed, every=9, **config):
    """(rules, state) every few decisions of a random game that gives a gift half the time it can."""
    rules = ConstructionRules(ConstructionRules.make_config(num_players=n, **config))
    s = rules.new_game(np.random.default_rng(seed))
    rng = np.random.default_rng(seed + 100)
    k = 0
    while not rules.is_over(s):
        if k % every == 0:
            yield rules, s
        legal = np.flatnonzero(rules.legal_mask(s))
        gifts = [a for a in legal if rules.action_name(int(a), s).startswith("gift")]
        rules.apply(s, int(rng.choice(gifts) if gifts and rng.random() < 0.5 else rng.choice(legal)))
        k += 1


def hidden_gifts(s, me):
    return [i for i, (kind, a, b, _) in enumerate(s.ledger) if kind == GIFT and a != me and b != me]


def fields(s):
    return {name: getattr(s, name) for name in s.FIELDS}


@pytest.mark.parametrize("n", COUNTS)
def test_states_me_cannot_tell_apart_give_the_same_resample(n):
    compared = gifts_differed = 0
    for seed in range(2):
        for rules, s in gift_heavy_positions(n, seed, every=13, investigation_gifts=seed == 1):
            me = s.actor
            twin = rules.resample_hidden(s, me, np.random.default_rng(10_000 + seed))  # another truth
            assert rules.observe(twin, me).tolist() == rules.observe(s, me).tolist()
            hid = hidden_gifts(s, me)
            gifts_differed += any(s.ledger[i] != twin.ledger[i] for i in hid)
            a = rules.resample_hidden(s, me, np.random.default_rng(seed))
            b = rules.resample_hidden(twin, me, np.random.default_rng(seed))
            assert fields(a) == fields(b), f"{n} players, seed {seed}: the resample shows the truth"
            compared += 1
    assert compared > 10
    assert gifts_differed > 5  # the twins really hold other secret gift amounts


def test_many_secret_gifts_get_consistent_amounts_without_the_truth():
    """Positions with dozens of secret gifts between others (the old search gave up on them and
    redrew from the true amounts): amounts are found, replay the ledger, and do not follow the truth."""
    rules, s = next((r, s) for r, s in gift_heavy_positions(5, 0, every=1, max_gifts=3)
                    if len(hidden_gifts(s, 0)) >= 40)
    hid = hidden_gifts(s, 0)
    for seed in range(3):
        scrambled = s.ledger[:]
        for i in hid:  # amounts the search may not look at: any nonsense gives the same draw
            scrambled[i] = (GIFT, s.ledger[i][1], s.ledger[i][2], 999)
        got = consistent_amounts(s.ledger, hid, s.n, np.random.default_rng(seed))
        assert got == consistent_amounts(scrambled, hid, s.n, np.random.default_rng(seed))
        drawn = s.ledger[:]
        for i, c in zip(hid, got):
            drawn[i] = (GIFT, s.ledger[i][1], s.ledger[i][2], c)
        assert money.replay(s.copy(), drawn, True)  # every payment and revealed cash as it was
        assert got != [s.ledger[i][3] for i in hid]  # a draw, not the truth
