"""The PettingZoo AEC env of Corruptia (corruptia_v0)."""
from __future__ import annotations

from typing import Any

from ..core import GameEnv, make_env_class, parallel_env_fn
from .rules import CorruptiaRules

raw_env = make_env_class(CorruptiaRules)


def env(**config: Any) -> GameEnv:
    return raw_env(**config)


parallel_env = parallel_env_fn(env)
