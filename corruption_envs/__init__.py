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
from .core.game import Game
from .registry import GAMES, get_game, list_games, register, unregister

__version__ = "0.1.0"


def env(game: str | Game, **config: Any) -> GameEnv:
    """The AEC env of `game` (e.g. env("corruption", num_players=4, reward="rank"))."""
    return get_game(game).env(**config)


def raw_env(game: str | Game, **config: Any) -> GameEnv:
    return get_game(game).raw_env(**config)


def parallel_env(game: str | Game, **config: Any) -> ParallelEnv:
    """`game` as a PettingZoo ParallelEnv, for clients that take only those (each step() takes the
    action of the one agent on turn, the others' are ignored)."""
    return get_game(game).parallel_env(**config)


__all__ = [
    "GAMES",
    "Game",
    "GameEnv",
    "GameOverError",
    "IllegalActionError",
    "IllegalActionWarning",
    "NotResetError",
    "PolicyFileError",
    "RandomAgent",
    "env",
    "get_game",
    "list_games",
    "parallel_env",
    "raw_env",
    "register",
    "unregister",
]
