"""Determinized flat Monte Carlo (PIMC-style), the simple baseline beside ISMCTS.

Each simulation draws a determinization from the acting seat's information set, plays one of its
legal moves (round robin, so every move gets the same share of the budget) and finishes the game
with the playout policy (on the batched engine, a wave of them at once: `waves.play_firsts`). The
move with the best mean rank points is played. No tree: the moves after
the first are all the playout's, so it cannot plan a sequence of its own sub-decisions.
"""
from __future__ import annotations

import numpy as np

from ..core import GameState
from .base import SearchAgent
from .waves import play_firsts


class PIMCAgent(SearchAgent):
    """`simulations` determinized playouts a move, spread evenly over the legal moves."""

    def _new_stats(self, me: int, legal: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
        return me, legal, np.zeros(legal.size), np.zeros(legal.size)

    def _simulate(self, stats: tuple, state: GameState, done: int) -> None:
        me, legal, totals, counts = stats
        k = done % legal.size
        self.view.env.rules.apply(state, int(legal[k]))
        totals[k] += self.playout.run(state)[me]
        counts[k] += 1

    def _simulate_wave(self, stats: tuple, size: int, done: int) -> None:
        me, legal, totals, counts = stats
        ks = (done + np.arange(size)) % legal.size
        points = play_firsts(self._rows, self._wave_playout, legal[ks])
        np.add.at(totals, ks, [p[me] for p in points])
        np.add.at(counts, ks, 1)

    def _choose(self, stats: tuple) -> int:
        _, legal, totals, counts = stats
        means = np.where(counts > 0, totals / np.maximum(counts, 1), -np.inf)
        return int(legal[int(np.argmax(means))])
