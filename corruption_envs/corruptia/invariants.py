"""Invariants of a Corruptia state, checked after every step by the random-play fuzz.

Kept cheap (no pass over the whole grid): the fuzz calls this after every decision of thousands of games.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from .slots import CRONIES_SCALE, MAX_SLOTS, OFFICIALS_SCALE, SLOT_FEATURES, scaled_coords
from .scoring import department_values
from .state import (CELL, IN_BOX, IN_DECK, IN_DISCARD, NEGOTIATE, ON_TABLE, OVER, PROPOSED, SWAP_TAKE,
                    VOTE, WORKER)
from .tables import (
    CRONIES_EACH, DEAL_PER_ROUND, DEPT, FINAL_HAND, INCOME, NUM_CARDS, NUM_DEPTS, NUM_OFFICIALS,
    START_HAND, WORKERS_PER_BILL,
)

if TYPE_CHECKING:
    from .geometry import Grid
    from .rules import CorruptiaPlay
    from .state import CorruptiaState

ALL_CARDS = list(range(NUM_CARDS))


def check_invariants(rules: "CorruptiaPlay", s: "CorruptiaState") -> None:
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
    nb, cell_card = rules.neighbours, s.cell_card
    beside = _board_tables(rules.grid)[1][s.placed]
    occupied = np.array([cell_card[j] >= 0 for j in beside.ravel().tolist()]).reshape(beside.shape)
    assert (occupied & (beside >= 0)).any(axis=1).all(), "every bill touches another"
    assert max(rules.grid.distance[c] for c in s.placed) <= rules.reach, "a bill left the grid's proven bound"
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


# the slot columns of a bill's department and income, per card
DEPT_COLUMNS = np.eye(NUM_DEPTS)[list(DEPT)]
INCOME_COLUMNS = np.eye(3)[[i - 1 for i in INCOME]]


@lru_cache(maxsize=None)
def _board_tables(grid: "Grid") -> tuple[np.ndarray, np.ndarray]:
    """Per cell of `grid`: its scaled (row, col) and its neighbour cells (-1 off the grid)."""
    return np.array([scaled_coords(*rc) for rc in grid.coords]), np.array(grid.neighbours, np.intp)


def check_slots(rules: "CorruptiaPlay", s: "CorruptiaState") -> None:
    """The observed bill slots match the table: the bills in the order placed, then the proposed one.

    Every slot row is rebuilt from the table (a few array ops for all rows at once) and compared
    exactly: the observer writes the same float32 values, so no tolerance is needed."""
    proposing = s.phase in (WORKER, NEGOTIATE, VOTE)
    cells = s.placed + [s.cell] if proposing else s.placed
    k = len(cells)
    assert k <= MAX_SLOTS, "every bill on the table, and the proposed one, has a slot"
    assert not s.slots[k:].any(), "slots past the last bill are empty"
    coords, neighbours = _board_tables(rules.grid)
    cell_card = s.cell_card
    cards = [cell_card[c] for c in s.placed] + ([s.bill] if proposing else [])
    beside = neighbours[cells]
    expected = np.zeros((k, SLOT_FEATURES))
    expected[:, 0] = 1.0
    expected[:, 1] = [False] * len(s.placed) + [True] * proposing
    expected[:, 2:4] = coords[cells]
    expected[:, 4:4 + NUM_DEPTS] = DEPT_COLUMNS[cards]
    expected[:, 4 + NUM_DEPTS:7 + NUM_DEPTS] = INCOME_COLUMNS[cards]
    expected[:, 7 + NUM_DEPTS] = np.array([s.officials[c] for c in cells]) / OFFICIALS_SCALE
    expected[:, 8 + NUM_DEPTS] = np.array([s.cronies[c] for c in cells]) / CRONIES_SCALE
    if proposing:
        expected[:, 9 + NUM_DEPTS] = np.array([s.pending.get(c, 0) for c in cells]) / WORKERS_PER_BILL
    expected[:, 10 + NUM_DEPTS:] = np.array([cell_card[j] >= 0 for j in beside.ravel().tolist()]).reshape(
        beside.shape) & (beside >= 0)
    bad = np.flatnonzero((s.slots[:k] != expected.astype(np.float32)).any(axis=1))
    assert not bad.size, f"slot {bad[0]} does not show the bill at cell {cells[bad[0]]}"
