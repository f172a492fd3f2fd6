"""Bots that act from an observation vector and an action mask only."""
from __future__ import annotations

from typing import Protocol

import numpy as np


class Agent(Protocol):
    """Anything that picks a legal action from what its seat sees."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int: ...


class RandomAgent:
    """Uniform over the legal actions, from its own seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("RandomAgent was asked to act with an all-zero action mask")
        return int(legal[self.rng.integers(legal.size)])
