"""corruption-envs: PettingZoo AEC environments for three hidden-information games of bribery.

    import corruption_envs
    env = corruption_envs.env("corruption", num_players=4)
"""
from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType
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

__version__ = "0.1.0"

# game name -> module that defines env(), raw_env(), Rules and HeuristicAgent
GAMES: dict[str, str] = {
    "corruption": "corruption_envs.corruption",
    "corruptia": "corruption_envs.corruptia",
    "construction": "corruption_envs.construction",
}


def register(name: str, module: str) -> None:
    """Make game `name` playable by name, from `module` (which defines env() and raw_env(), and
    HeuristicAgent for 'heuristic' bots). Only code registers a game: a file (a replay log, a config)
    can only name one registered here, so reading a file never imports anything it names."""
    if not (isinstance(name, str) and name.isidentifier()):
        raise ValueError(f"game name {name!r} must be an identifier, e.g. 'my_game'")
    if GAMES.get(name, module) != module:
        raise ValueError(f"game {name!r} is already registered to {GAMES[name]}; pick another name")
    GAMES[name] = module


def list_games() -> list[str]:
    """The names of the games whose module is installed."""
    return [g for g in GAMES if importlib.util.find_spec(GAMES[g]) is not None]


def game_module(game: str) -> ModuleType:
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; choose one of {list(GAMES)}")
    return importlib.import_module(GAMES[game])


def env(game: str, **config: Any) -> GameEnv:
    """The AEC env of `game` (e.g. env("corruption", num_players=4, reward="rank"))."""
    return game_module(game).env(**config)


def raw_env(game: str, **config: Any) -> GameEnv:
    return game_module(game).raw_env(**config)


def parallel_env(game: str, **config: Any) -> ParallelEnv:
    """`game` as a PettingZoo ParallelEnv, for clients that take only those: each step() takes the action
    of the one agent on turn (the others' are ignored), by PettingZoo's turn_based_aec_to_parallel."""
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    return turn_based_aec_to_parallel(env(game, **config))


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
]
