"""The core toy game packaged like a real game (its `GAME`, with a heuristic bot), so the training
code is tested end to end without a real game. One change makes masks matter: a player may raise
only while they hold no chip, so an agent that ignores the mask plays an illegal action."""
from __future__ import annotations

import numpy as np

from corruption_envs.core import make_env_class
from corruption_envs.core.agents import Agent
from corruption_envs.core.game import Game
from tests.core.toy import ToyRules


class MaskedToyRules(ToyRules):
    def legal_mask(self, s):
        return np.array([1, 1 if s.chips[self.current_player(s)] == 0 else 0], np.int8)


raw_env = make_env_class(MaskedToyRules)


def env(**config):
    return raw_env(**config)


class HeuristicAgent(Agent):
    """Raising is never worse in the toy game (chips + card decide): raise whenever allowed."""

    def __init__(self, env, seed=None) -> None:
        self.env = env

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return 1 if action_mask[1] else 0


GAME = Game(name="toy", about="the toy game with masks that matter, 2-4 players", raw_env=raw_env, env=env,
            bots={"heuristic": HeuristicAgent})

__all__ = ["GAME", "env", "raw_env", "MaskedToyRules", "HeuristicAgent"]
