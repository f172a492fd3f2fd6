"""The bill slots of Corruptia's observation (`observer.py`'s docstring lays them out): one row per bill on
the table, kept in the state (`state.slots`) by the rules as the table changes, which is rare, so that
observe(), which is hot, copies them whole.

Every count plays on the same 5-player board (codec.BOARD), so a slot's coordinates are scaled by it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .codec import BOARD, MAX_PLAYERS
from .geometry import DIRECTIONS
from .tables import DEPT, INCOME, NUM_OFFICIALS, NUM_ROUNDS, TRIANGLE_SIZE, WORKERS_PER_BILL

if TYPE_CHECKING:
    from .state import CorruptiaState

MAX_SLOTS = TRIANGLE_SIZE + NUM_ROUNDS * MAX_PLAYERS  # 28
S_PRESENT, S_PROPOSED, S_ROW, S_COL, S_DEPT, S_INCOME, S_OFFICIALS, S_CRONIES, S_INTERVIEW, \
    S_NEIGHBOURS = 0, 1, 2, 3, 4, 9, 12, 13, 14, 15
SLOT_FEATURES = S_NEIGHBOURS + len(DIRECTIONS)  # 21
OFFICIALS_SCALE = float(NUM_OFFICIALS)  # all 18 officials could gather on one bill
CRONIES_SCALE = float(WORKERS_PER_BILL)  # Cronies join a bill only with its three workers
_ROWS = [r for r, _ in BOARD.coords]
_COLS = [c for _, c in BOARD.coords]
ROW_MIN, ROW_SPAN = min(_ROWS), max(_ROWS) - min(_ROWS)
COL_MIN, COL_SPAN = min(_COLS), max(_COLS) - min(_COLS)
OPPOSITE = [(d + len(DIRECTIONS) // 2) % len(DIRECTIONS) for d in range(len(DIRECTIONS))]


def scaled_coords(row: int, col: int) -> tuple[float, float]:
    return (row - ROW_MIN) / ROW_SPAN, (col - COL_MIN) / COL_SPAN


def cell_at(row: float, col: float) -> tuple[int, int]:
    """The (row, col) of a slot's scaled coordinates."""
    return ROW_MIN + round(row * ROW_SPAN), COL_MIN + round(col * COL_SPAN)


CELL_COORDS = [scaled_coords(r, c) for r, c in BOARD.coords]  # per cell, its slot coordinates


def show_bill(s: CorruptiaState, cell: int, card: int, proposed: bool) -> None:
    """Write the bill at `cell` into the next free slot: a bill joining the table, or the one being
    proposed there."""
    cell_card, neighbours = s.cell_card, BOARD.neighbours[cell]
    row = s.slots[len(s.placed) - (not proposed)]
    row[:] = 0.0
    row[S_PRESENT] = 1.0
    row[S_PROPOSED] = proposed
    row[S_ROW], row[S_COL] = CELL_COORDS[cell]
    row[S_DEPT + DEPT[card]] = 1.0
    row[S_INCOME + INCOME[card] - 1] = 1.0
    row[S_OFFICIALS] = s.officials[cell] / OFFICIALS_SCALE
    row[S_CRONIES] = s.cronies[cell] / CRONIES_SCALE
    for d, j in enumerate(neighbours):
        if j >= 0 and cell_card[j] >= 0:
            row[S_NEIGHBOURS + d] = 1.0
            if not proposed:  # the neighbour now has a bill on this side
                s.slots[s.placed.index(j), S_NEIGHBOURS + OPPOSITE[d]] = 1.0


def update_bill(s: CorruptiaState, cell: int, interviewed: int) -> None:
    """The officials of the bill at `cell`, and how many of them are proposed as workers."""
    row = s.slots[s.placed.index(cell)]
    row[S_OFFICIALS] = s.officials[cell] / OFFICIALS_SCALE
    row[S_INTERVIEW] = interviewed / WORKERS_PER_BILL
