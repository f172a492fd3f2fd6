"""The PettingZoo AEC env of Construction & Corruption (construction_v0)."""
from __future__ import annotations

from typing import Any

from ..core import GameEnv, make_env_class, parallel_env_fn
from .rules import ConstructionRules

raw_env = make_env_class(ConstructionRules)


def env(**config: Any) -> GameEnv:
    return raw_env(**config)


parallel_env = parallel_env_fn(env)
