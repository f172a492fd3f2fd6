"""Invariants of a Corruptia state, checked after every step by the random-play fuzz.

Kept cheap (no pass over the whole grid): the fuzz calls this after every decision of thousands of games.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .observer import CRONIES_SCALE, MAX_SLOTS, OFFICIALS_SCALE, scaled_coords
from .scoring import department_values
from .state import (CELL, IN_BOX, IN_DECK, IN_DISCARD, NEGOTIATE, ON_TABLE, OVER, PROPOSED, SWAP_TAKE,
                    VOTE, WORKER)
from .tables import (
    CRONIES_EACH, DEAL_PER_ROUND, DEPT, FINAL_HAND, INCOME, NUM_CARDS, NUM_DEPTS, NUM_OFFICIALS,
    START_HAND, WORKERS_PER_BILL,
)

if TYPE_CHECKING:
    from .rules import CorruptiaRules
    from .state import CorruptiaState

ALL_CARDS = list(range(NUM_CARDS))


def check_invariants(rules: "CorruptiaRules", s: "CorruptiaState") -> None:
    n = s.n
    in_proposal = s.phase in (CELL, WORKER, NEGOTIATE, VOTE)
    table = [s.cell_card[i] for i in s.placed]
    places = s.deck + s.box + s.discard + table
    for h in s.hands:
        places += h
    if in_proposal:
        places.append(s.bill)
    assert sorted(places) == ALL_CARDS, \
        "every bill must be in exactly one place (pile, box, discard zone, table, a hand, the proposal)"
    # with every card counted once, no cell can hold a card that is missing from `placed`
    assert len(s.placed) == len(set(s.placed)) and min(table) >= 0, \
        "the list of placed cells must match the table"
    # (rules only ever change officials on placed cells, so counting those is enough)
    on_table = [s.officials[i] for i in s.placed]
    assert sum(on_table) == NUM_OFFICIALS and min(on_table) >= 0, \
        "Public Officials are conserved and stand on bills"
    pending = s.pending_cronies if in_proposal else 0
    assert sum(s.reserve) + sum(s.cronies[i] for i in s.placed) + pending == CRONIES_EACH * n, \
        "Cronies are conserved"
    assert min(s.reserve) >= 0, "no reserve is negative"
    assert min(s.tokens) >= 0, "tokens never go negative"
    radius, distance, nb, cell_card = rules.reach, rules.grid.distance, rules.neighbours, s.cell_card
    for cell in s.placed:
        assert any(j >= 0 and cell_card[j] >= 0 for j in nb[cell]), "every bill touches another"
        assert distance[cell] <= radius, "a bill left the grid's proven bound"
    if in_proposal:
        for j, k in s.pending.items():
            assert 0 < k <= s.officials[j], "interview officials come from a bill holding them"
        assert s.cell < 0 or cell_card[s.cell] < 0, "the proposed cell is empty"
    # hands: 3 + 2 a round dealt so far, minus one card played each own turn
    rounds_dealt = 5 if s.phase == OVER else s.round + 1
    loc = np.full(NUM_CARDS, IN_DECK, np.int8)
    loc[s.box] = IN_BOX
    loc[s.discard] = IN_DISCARD
    loc[table] = ON_TABLE
    if in_proposal:
        loc[s.bill] = PROPOSED
    for p in range(n):
        expected = START_HAND + DEAL_PER_ROUND * rounds_dealt - s.played[p]
        if s.phase == SWAP_TAKE and p == s.actor:
            expected -= 1  # between giving up a card and taking one
        hand = s.hands[p]
        assert len(hand) == expected, f"player_{p} holds {len(hand)} cards, not {expected}"
        loc[hand] = p
        assert not s.held[p][p], "nobody holds their own party's blackmail card"
    known = np.flatnonzero(s.known_at >= 0)
    assert (s.loc[known] == s.known_at[known]).all(), "publicly known hand cards are in that hand"
    assert np.array_equal(loc, s.loc), "loc mirrors where every card is"
    if s.phase == OVER:
        assert all(len(h) == FINAL_HAND for h in s.hands), "eight cards in each hand at the end"
    if s.phase == SWAP_TAKE:
        assert s.given in s.discard, "the card just given up lies in the discard zone"
    check_slots(rules, s)
    assert s.values == department_values(cell_card, s.officials, s.cronies, s.placed, nb), \
        "cached department values match the table"


def check_slots(rules: "CorruptiaRules", s: "CorruptiaState") -> None:
    """The observed bill slots match the table: the bills in the order placed, then the proposed one."""
    proposing = s.phase in (WORKER, NEGOTIATE, VOTE)
    cells = s.placed + [s.cell] if proposing else s.placed
    assert len(cells) <= MAX_SLOTS, "every bill on the table, and the proposed one, has a slot"
    assert not s.slots[len(cells):].any(), "slots past the last bill are empty"
    coords, neighbours = rules.grid.coords, rules.grid.neighbours
    for k, cell in enumerate(cells):
        row = s.slots[k]
        is_proposed = k == len(s.placed)
        card = s.bill if is_proposed else s.cell_card[cell]
        interviewed = s.pending.get(cell, 0) if proposing else 0
        expected = [1.0, float(is_proposed), *scaled_coords(*coords[cell])]
        expected += [float(DEPT[card] == d) for d in range(NUM_DEPTS)]
        expected += [float(INCOME[card] == i) for i in (1, 2, 3)]
        expected += [s.officials[cell] / OFFICIALS_SCALE, s.cronies[cell] / CRONIES_SCALE,
                     interviewed / WORKERS_PER_BILL]
        expected += [float(j >= 0 and s.cell_card[j] >= 0) for j in neighbours[cell]]
        assert np.allclose(row, expected), f"slot {k} does not show the bill at cell {cell}"
