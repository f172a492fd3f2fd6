"""corruption-envs: PettingZoo AEC environments for three hidden-information games of bribery.

    import corruption_envs
    env = corruption_envs.env("corruption", num_players=4)
"""
from __future__ import annotations

from typing import Any

from pettingzoo import ParallelEnv

from .core import (
    GameEnv,
    GameOverError,
    IllegalActionError,
    IllegalActionWarning,
    NotResetError,
    PolicyFileError,
    RandomAgent,
)
from .registry import GAMES, game_module, list_games, register, unregister

__version__ = "0.1.0"


def env(game: str, **config: Any) -> GameEnv:
    """The AEC env of `game` (e.g. env("corruption", num_players=4, reward="rank"))."""
    return game_module(game).env(**config)


def raw_env(game: str, **config: Any) -> GameEnv:
    return game_module(game).raw_env(**config)


def parallel_env(game: str, **config: Any) -> ParallelEnv:
    """`game` as a PettingZoo ParallelEnv, for clients that take only those: its module's
    `parallel_env` (each step() takes the action of the one agent on turn, the others' are ignored)."""
    return game_module(game).parallel_env(**config)


__all__ = [
    "GAMES",
    "GameEnv",
    "GameOverError",
    "IllegalActionError",
    "IllegalActionWarning",
    "NotResetError",
    "PolicyFileError",
    "RandomAgent",
    "env",
    "game_module",
    "list_games",
    "parallel_env",
    "raw_env",
    "register",
    "unregister",
]
