"""Which game a name means, and the one resolver of the strings that name code.

A game is registered by code (`register`); a file (a replay log, a config, a policy's metadata) can
only name a registered game, so reading a file never imports anything it names. A `module:attr` string
is imported only by `import_attr`, for specs a person typed on a command line (`benchmarks.tournament
--game tests.core.toy:ToyEnv`, `--agents my_bots:Greedy`) or gave in code.
"""
from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType
from typing import Any

# game name -> module that defines env(), raw_env() (whose rules_class is the game's Rules),
# parallel_env() and HeuristicAgent
GAMES: dict[str, str] = {
    "corruption": "corruption_envs.corruption",
    "corruptia": "corruption_envs.corruptia",
    "construction": "corruption_envs.construction",
}


def register(name: str, module: str) -> None:
    """Make game `name` playable by name, from `module` (which defines env() and raw_env(),
    `parallel_env = core.parallel_env_fn(env)` for `parallel_env(name)`, and HeuristicAgent for
    'heuristic' bots). Only code registers a game: a file (a replay log, a config)
    can only name one registered here, so reading a file never imports anything it names."""
    if not (isinstance(name, str) and name.isidentifier()):
        raise ValueError(f"game name {name!r} must be an identifier, e.g. 'my_game'")
    if GAMES.get(name, module) != module:
        raise ValueError(f"game {name!r} is already registered to {GAMES[name]}; pick another name")
    GAMES[name] = module


def unregister(name: str) -> None:
    """Forget game `name` (registered by `register`)."""
    if name not in GAMES:
        raise ValueError(f"game {name!r} is not registered; registered games: {list(GAMES)}")
    del GAMES[name]


def list_games() -> list[str]:
    """The names of the games whose module is installed."""
    return [g for g in GAMES if importlib.util.find_spec(GAMES[g]) is not None]


def game_module(game: str) -> ModuleType:
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; choose one of {list(GAMES)}")
    return importlib.import_module(GAMES[game])


def game_submodule(game: str, part: str) -> ModuleType:
    """A registered game's module `part` (e.g. 'invariants')."""
    game_module(game)
    return importlib.import_module(f"{GAMES[game]}.{part}")


def import_attr(spec: str) -> Any:
    """The attribute that 'module:attr' names (the module is imported): only for specs from a person or
    code, never from a file."""
    module, sep, attr = spec.partition(":")
    if not (sep and module and attr):
        raise ValueError(f"{spec!r} is not of the form 'module:attr', e.g. 'tests.core.toy:ToyEnv'")
    return getattr(importlib.import_module(module), attr)


def env_class(game: str) -> Any:
    """The env class of a registered game, or the class a 'module:attr' spec names."""
    return import_attr(game) if ":" in game else game_module(game).raw_env


def rules_class(game: str) -> Any:
    """The Rules class of a registered game or a 'module:attr' env class (its player range, options)."""
    return env_class(game).rules_class


def make_env(game: str, **config: Any) -> Any:
    """The AEC env of a registered game (wrapped as its env() does), or of a 'module:attr' env class."""
    return import_attr(game)(**config) if ":" in game else game_module(game).env(**config)
