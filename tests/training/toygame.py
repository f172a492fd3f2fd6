"""The core toy game packaged like a real game module (env, raw_env, HeuristicAgent), so the
training code can be tested end to end without waiting for a real game."""
from __future__ import annotations

import numpy as np

from tests.core.toy import ToyEnv, ToyRules

raw_env = ToyEnv


def env(**config):
    return raw_env(**config)


class HeuristicAgent:
    """Raising is never worse in the toy game (chips + card decide), so always raise."""

    def __init__(self, env, seed=None) -> None:
        self.env = env

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return 1


__all__ = ["env", "raw_env", "ToyRules", "HeuristicAgent"]
