"""Which game a name means, and the one resolver of the strings that name code.

A game is registered by code (`register(Game(...))`); a file (a replay log, a config, a policy's metadata)
can only name a registered game, so reading a file never imports anything it names. A name is looked up
once, where it comes in (`get_game`), and the `Game` is handed on. A `module:attr` string is imported only
by `import_attr`, for specs a person typed on a command line (`benchmarks.tournament --game
tests.core.toy:ToyEnv`, `--agents my_bots:Greedy`) or gave in code.
"""
from __future__ import annotations

import importlib
from typing import Any

from . import construction, corruptia, corruption
from .core.game import Game

# game name -> its description; the games this package ships, then any that code registers
GAMES: dict[str, Game] = {g.name: g for g in (corruption.GAME, corruptia.GAME, construction.GAME)}


def register(game: Game) -> None:
    """Make `game` playable by its name: its env, bots and engine. Only code registers a game: a file (a
    replay log, a config) can only name one registered here, so reading a file never imports anything."""
    if not isinstance(game, Game):
        raise TypeError(f"register takes a Game (corruption_envs.core.game.Game), not {type(game).__name__}")
    if GAMES.get(game.name, game) is not game:
        raise ValueError(f"game {game.name!r} is already registered ({GAMES[game.name].about}); pick another name")
    GAMES[game.name] = game


def unregister(name: str) -> None:
    """Forget game `name` (registered by `register`)."""
    if name not in GAMES:
        raise ValueError(f"game {name!r} is not registered; registered games: {list(GAMES)}")
    del GAMES[name]


def list_games() -> list[str]:
    """The names of the registered games."""
    return list(GAMES)


def get_game(game: str | Game) -> Game:
    """The registered game a name means (a `Game` is handed back as it is)."""
    if isinstance(game, Game):
        return game
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; choose one of {list(GAMES)}")
    return GAMES[game]


def import_attr(spec: str) -> Any:
    """The attribute that 'module:attr' names (the module is imported): only for specs from a person or
    code, never from a file."""
    module, sep, attr = spec.partition(":")
    if not (sep and module and attr):
        raise ValueError(f"{spec!r} is not of the form 'module:attr', e.g. 'tests.core.toy:ToyEnv'")
    return getattr(importlib.import_module(module), attr)


def env_class(game: str) -> Any:
    """The env class of a registered game, or the class a 'module:attr' spec names."""
    return import_attr(game) if ":" in game else get_game(game).raw_env


def rules_class(game: str) -> Any:
    """The Rules class of a registered game or a 'module:attr' env class (its player range, options)."""
    return env_class(game).rules_class


def make_env(game: str, **config: Any) -> Any:
    """The AEC env of a registered game (wrapped as its env() does), or of a 'module:attr' env class."""
    return import_attr(game)(**config) if ":" in game else get_game(game).env(**config)
