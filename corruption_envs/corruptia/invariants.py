"""Invariants of a Corruptia state, checked after every step by the random-play fuzz."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .scoring import department_values
from .state import IN_DISCARD, CELL, NEGOTIATE, OVER, SWAP_TAKE, VOTE, WORKER
from .tables import CRONIES_EACH, DEAL_PER_ROUND, NUM_CARDS, NUM_OFFICIALS, START_HAND

if TYPE_CHECKING:
    from .rules import CorruptiaRules
    from .state import CorruptiaState


def check_invariants(rules: "CorruptiaRules", s: "CorruptiaState") -> None:
    n = s.n
    in_proposal = s.phase in (CELL, WORKER, NEGOTIATE, VOTE)
    places = s.deck + s.box + s.discard + [c for c in s.cell_card if c >= 0]
    for h in s.hands:
        places += h
    if in_proposal:
        places.append(s.bill)
    assert len(places) == NUM_CARDS and set(places) == set(range(NUM_CARDS)), \
        "every bill must be in exactly one place (pile, box, discard zone, table, a hand, the proposal)"
    assert len(s.placed) == len(set(s.placed)) == sum(c >= 0 for c in s.cell_card), \
        "the list of placed cells must match the table"
    assert sum(s.officials) == NUM_OFFICIALS, "Public Officials are conserved"
    assert all(x >= 0 for x in s.officials), "no bill has a negative number of officials"
    pending = s.pending_cronies if in_proposal else 0
    assert sum(s.reserve) + sum(s.cronies) + pending == CRONIES_EACH * n, "Cronies are conserved"
    assert all(x >= 0 for x in s.reserve), "no reserve is negative"
    assert all(t >= 0 for t in s.tokens), "tokens never go negative"
    for cell in s.placed:
        assert any(j >= 0 and s.cell_card[j] >= 0 for j in rules.neighbours[cell]), \
            "every bill on the table touches another"
        assert rules.grid.distance[cell] <= rules.grid.radius, "a bill left the grid's proven bound"
    if in_proposal:
        for j, k in s.pending.items():
            assert 0 < k <= s.officials[j], "interview officials come from a bill holding them"
        assert s.cell_card[s.cell] < 0 if s.cell >= 0 else True, "the proposed cell is empty"
    rounds_dealt = min(s.round, 4) + 1 if s.phase != OVER else 5
    for p in range(n):
        expected = START_HAND + DEAL_PER_ROUND * rounds_dealt - s.played[p]
        if s.phase == SWAP_TAKE and p == s.actor:
            expected -= 1  # between giving up a card and taking one
        assert len(s.hands[p]) == expected, f"player_{p} holds {len(s.hands[p])} cards, not {expected}"
        assert sorted(np.flatnonzero(s.loc == p).tolist()) == sorted(s.hands[p]), \
            f"loc mirrors player_{p}'s hand"
    assert all(s.loc[c] == s.known_at[c] for c in np.flatnonzero(s.known_at >= 0)), \
        "publicly known hand cards are in that hand"
    assert sorted(np.flatnonzero(s.loc == IN_DISCARD).tolist()) == sorted(s.discard), \
        "loc mirrors the discard zone"
    if s.phase == OVER:
        assert all(len(h) == 8 for h in s.hands), "eight cards in each hand at the end"
    if s.phase == SWAP_TAKE:
        assert s.given in s.discard, "the card just given up lies in the discard zone"
    assert s.values == department_values(s.cell_card, s.officials, s.cronies, s.placed,
                                         rules.neighbours), \
        "cached department values match the table"
    for p in range(n):
        assert not s.held[p][p], "nobody holds their own party's blackmail card"
