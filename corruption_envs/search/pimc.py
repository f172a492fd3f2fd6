"""Determinized flat Monte Carlo (PIMC-style), the simple baseline beside ISMCTS.

Each simulation draws a determinization from the acting seat's information set, plays one of its
legal moves (round robin, so every move gets the same share of the budget) and finishes the game
with the playout policy. The move with the best mean rank points is played. No tree: the moves after
the first are all the playout's, so it cannot plan a sequence of its own sub-decisions.
"""
from __future__ import annotations

import time

import numpy as np

from ..core import GameEnv
from .rollout import Playout, SeatView


class PIMCAgent:
    """`simulations` determinized playouts a move, spread evenly over the legal moves."""

    def __init__(
        self,
        env: GameEnv,
        seed: int | None = None,
        simulations: int = 200,
        rollout: str = "random",
        time_limit: float | None = None,
    ) -> None:
        if simulations < 1:
            raise ValueError(f"simulations={simulations}: give at least 1 simulation a move")
        if time_limit is not None and time_limit < 0:
            raise ValueError(f"time_limit={time_limit}: give a number of seconds >= 0, or None")
        self.view = SeatView(env)
        self.simulations = simulations
        self.time_limit = time_limit
        self.rng = np.random.default_rng(seed)
        self.playout = Playout(self.view.env, rollout, self.rng)
        self.last_iterations = 0

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def bind(self, env: GameEnv, seed: int | None = None) -> None:
        """Play in `env` from now on (for callers that build the bot before the env it plays in)."""
        self.view = SeatView(env)
        self.playout = Playout(self.view.env, self.playout.policy, self.rng)
        self.seed(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("PIMCAgent was asked to act with an all-zero action mask")
        me, truth = self.view.acting_state(observation)
        if legal.size == 1:
            self.last_iterations = 0
            return int(legal[0])
        self.playout.reseed(self.rng)
        rules = self.view.env.rules
        totals, counts = np.zeros(legal.size), np.zeros(legal.size)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        done = 0
        while done < self.simulations:
            k = done % legal.size
            state = self.view.determinize(truth, me, self.rng)
            rules.apply(state, int(legal[k]))
            totals[k] += self.playout.run(state)[me]
            counts[k] += 1
            done += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        means = np.where(counts > 0, totals / np.maximum(counts, 1), -np.inf)
        return int(legal[int(np.argmax(means))])
