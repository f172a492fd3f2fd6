"""The toy game registered by name, for the tests of code that takes a game name (training, the
exploit probe, RLlib, bots): registered through `corruption_envs.register` and forgotten afterwards."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import corruption_envs

NAME = "toy"
MODULE = "tests.training.toygame"  # tests/core/toy.py packaged as a game module, with a heuristic


@contextmanager
def registered(name: str = NAME, module: str = MODULE) -> Iterator[str]:
    """Game `name` playable by name while the block runs."""
    corruption_envs.register(name, module)
    try:
        yield name
    finally:
        corruption_envs.unregister(name)
