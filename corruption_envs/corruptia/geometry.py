"""The brick layout as a bounded cell grid (rulings: cells (row, col) with row + col even).

Why the grid is big enough: a bill may only be proposed on an empty cell adjacent to a bill on the table,
and at most one bill is approved per turn, so after t approvals every bill on the table lies within t
steps of the starting triangle. A game has NUM_ROUNDS * num_players turns, so the last proposal of a game
lies within radius(n) = NUM_ROUNDS * n steps. The board (codec.BOARD) is the grid of radius(5), the
largest, at every count, so one action layout serves 3-5 players and the cells beyond radius(n) are never
legal in an n-player game; `tests/corruptia/test_proposal.py` checks that no bill ever gets beyond it.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from .tables import NUM_ROUNDS

TRIANGLE = ((0, 0), (1, -1), (1, 1))  # rulings: (0, 0) on top, (1, -1) and (1, 1) below it
# The six neighbours of (r, c), going round: east, north-east, north-west, west, south-west, south-east.
DIRECTIONS = ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1))
DIRECTION_NAMES = ("east", "north-east", "north-west", "west", "south-west", "south-east")


def radius(num_players: int) -> int:
    return NUM_ROUNDS * num_players


class Grid:
    """Cells within `radius` steps of the triangle, their (row, col) and neighbour table."""

    def __init__(self, reach: int) -> None:
        dist = {cell: 0 for cell in TRIANGLE}
        frontier = list(TRIANGLE)
        for step in range(1, reach + 1):
            nxt = []
            for r, c in frontier:
                for dr, dc in DIRECTIONS:
                    cell = (r + dr, c + dc)
                    if cell not in dist:
                        dist[cell] = step
                        nxt.append(cell)
            frontier = nxt
        self.radius = reach
        self.coords: tuple[tuple[int, int], ...] = tuple(sorted(dist))
        self.index: dict[tuple[int, int], int] = {rc: i for i, rc in enumerate(self.coords)}
        self.size = len(self.coords)
        self.distance = tuple(dist[rc] for rc in self.coords)
        # neighbours[i][d] = cell index in direction d, or -1 off the grid
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.index.get((r + dr, c + dc), -1) for dr, dc in DIRECTIONS)
            for r, c in self.coords
        )
        self.neighbour_array = np.array(self.neighbours, dtype=np.int64)
        self.triangle = tuple(self.index[rc] for rc in TRIANGLE)


@lru_cache(maxsize=None)
def grid_for(num_players: int) -> Grid:
    return Grid(radius(num_players))
