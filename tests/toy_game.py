"""The toy game registered by name, for the tests of code that takes a game name (training, the
exploit probe, RLlib, bots): registered through `corruption_envs.register` and forgotten afterwards."""
from __future__ import annotations

import dataclasses
from contextlib import contextmanager
from typing import Iterator

import corruption_envs
from corruption_envs.core.game import Game
from tests.training import toygame

NAME = "toy"


@contextmanager
def registered(name: str = NAME, game: Game = toygame.GAME) -> Iterator[str]:
    """`game` (by default tests/core/toy.py packaged as a game, with a heuristic) playable as `name`
    while the block runs."""
    corruption_envs.register(dataclasses.replace(game, name=name))
    try:
        yield name
    finally:
        corruption_envs.unregister(name)
