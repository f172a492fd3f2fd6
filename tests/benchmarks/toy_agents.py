"""Bots and policy files for benchmarking tests/core/toy.py's game (raising always wins more chips)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from corruption_envs.core.agents import Agent
from corruption_envs.policy import NumpyPolicy
from tests.core.toy import ToyEnv

TOY = "tests.core.toy:ToyEnv"
RAISE, CHECK = 1, 0


class RaiseAgent(Agent):
    """Always raises: a rigged strong bot (the highest chips + card wins)."""

    def __init__(self, env: Any = None, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return RAISE


class CheckAgent(RaiseAgent):
    """Always checks: the weakest possible toy bot."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return CHECK


def toy_policy(path: Path, action: int) -> Path:
    """A policy file for the toy game that always plays `action` (bias only, no hidden layer)."""
    size = ToyEnv().observation_layout.size
    bias = np.zeros(2, np.float32)
    bias[action] = 1.0
    meta = {"game": "toy", "game_version": 0, "min_players": 2, "max_players": 4}
    return NumpyPolicy([], (np.zeros((size, 2), np.float32), bias), meta=meta).save(path)
