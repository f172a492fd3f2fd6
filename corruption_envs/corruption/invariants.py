"""Consistency checks of a Corruption state, run after every step by the fuzz tests."""
from __future__ import annotations

import numpy as np

from .rules import CorruptionRules
from .state import (
    ASSIGNED, CONTRACT, CORRUPTION, DECK, HAND, LOST, OVER, SWISS, SWISS_STEP, TABLE, USED, WON,
    CorruptionState,
)
from .tables import (
    CARDS_PER_ROUND, CONTRACT_VALUE, IS_BRIBE, NUM_BODIES, NUM_CONTRACTS, NUM_ROUNDS,
    TOTAL_CONTRACT_VALUE,
)


def check_invariants(rules: CorruptionRules, s: CorruptionState) -> None:
    """Raise AssertionError naming the first broken invariant."""
    n = rules.num_players
    loc, where = s.loc, s.where
    running = s.phase != OVER

    # every card of every player is in exactly one place (loc is one code per card) and a legal one
    assert ((loc >= HAND) & (loc <= USED)).all(), "a card has no valid place"
    assert not (loc[:, IS_BRIBE] == USED).any(), "a bribe left the game (bribes always come back)"
    chars = loc[:, ~IS_BRIBE]
    assert not ((chars == SWISS) | (chars == ASSIGNED)).any(), "a character is on a Swiss account"
    assert ((where >= 0) == ((loc >= CONTRACT) & (loc <= ASSIGNED))).all(), \
        "a card's place index disagrees with its place"
    on_contracts = (loc == CONTRACT) | (loc == ASSIGNED)
    assert (s.cloc[where[on_contracts]] == TABLE).all(), "a card is on a contract off the table"
    assert (where[loc == SWISS] < NUM_BODIES).all(), "a Swiss card is on no body"
    if (loc == SWISS).any():
        assert s.phase in (CORRUPTION, SWISS_STEP), "a Swiss bribe is unassigned after step 1"
    if (loc == ASSIGNED).any():
        assert s.phase not in (CORRUPTION, OVER), "a Swiss bribe is assigned outside Phase III"
    if s.phase == OVER or (s.phase == CORRUPTION and s.turn == 0):
        assert (loc[:, IS_BRIBE] == HAND).all(), "a bribe did not come back at the end of the round"
        assert not (loc == CONTRACT).any(), "a card stayed on the table between rounds"

    # Reporters are played lowest id first, so id 7 is never in hand while id 8 is out
    assert not ((loc[:, 7] == HAND) & (loc[:, 8] != HAND)).any(), "Reporter 8 played before Reporter 7"

    if s.phase == CORRUPTION:
        out = ((loc == CONTRACT) | (loc == SWISS))
        assert (out.sum(axis=1) == s.placed).all(), "placed count disagrees with the table"
        assert ((loc == CONTRACT).sum(axis=1) == s.on_contracts).all(), "on-contract count is wrong"
        assert int(s.placed.sum()) == s.turn, "turn counter disagrees with the cards placed"
        assert (s.placed <= CARDS_PER_ROUND).all(), "a player placed more than six cards"
        assert s.to_act == (s.leader + s.turn) % n, "Phase II is not clockwise from the leader"
        faceup = ((loc == CONTRACT) & s.public).sum(axis=1)
        assert (faceup == np.minimum(s.on_contracts, s.round + 1)).all(), \
            "face-up cards are not each player's first r on contracts"
        assert not (s.public & (loc == SWISS)).any(), "a Swiss card is face-up in Phase II"
        counts = np.zeros((n, NUM_CONTRACTS + NUM_BODIES), np.int64)
        qs, cards = np.nonzero(((loc == CONTRACT) | (loc == SWISS)) & ~s.public)
        places = where[qs, cards] + np.where(loc[qs, cards] == SWISS, NUM_CONTRACTS, 0)
        np.add.at(counts, (qs, places), 1)
        assert (counts == np.array(s.hidden)).all(), "face-down counter disagrees with the table"
    elif running:
        assert not ((loc == CONTRACT) | (loc == SWISS))[~s.public].any(), "a card stayed hidden in Phase III"
        assert s.to_act == s.queue[s.qpos][0], "the Phase III decision is not its card's owner's"

    # each contract is in exactly one place: deck, table, won by one player, or lost
    assert ((s.cloc >= DECK) & (s.cloc <= LOST)).all(), "a contract has no valid place"
    assert sorted(s.deck) == sorted(np.flatnonzero(s.cloc == DECK).tolist()), "deck disagrees"
    assert len(set(s.deck)) == len(s.deck), "a contract is twice in the deck"
    assert ((s.cowner >= 0) == (s.cloc == WON)).all(), "a won contract has no winner or vice versa"
    assert ((s.cbody >= 0) == (s.cloc != DECK)).all(), "a dealt contract has no body"
    won = s.cowner >= 0
    owners = s.cowner[won].astype(np.int64)
    assert (s.won_value == np.bincount(owners, CONTRACT_VALUE[won], minlength=n)).all(), \
        "a player's total value disagrees with the contracts won"
    assert (s.won_count == np.bincount(owners, minlength=n)).all(), "a player's contract count is wrong"
    # values conserved: deck + table + won + lost is the whole set
    placed_value = int(CONTRACT_VALUE[(s.cloc >= DECK) & (s.cloc <= LOST)].sum())
    assert placed_value == TOTAL_CONTRACT_VALUE, "contract values are not conserved"
    if running:
        assert 0 <= s.round < NUM_ROUNDS, "round out of range"
        assert len(s.deck) == NUM_CONTRACTS - 6 * (s.round + 1), "six contracts are not dealt a round"
        per_body = np.bincount(s.cbody[s.cloc == TABLE], minlength=NUM_BODIES)
        assert (per_body >= 2).all(), "a body has fewer than two contracts"
        assert rules.legal_mask(s).any(), "the mask is all zero while the game runs"
    else:
        assert not (s.cloc == TABLE).any() and not s.deck, "contracts left on the table at the end"
