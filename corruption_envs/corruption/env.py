"""The PettingZoo AEC env of Corruption (corruption_v0): the generic adapter over CorruptionRules."""
from __future__ import annotations

from typing import Any

from ..core import GameEnv, make_env_class, parallel_env_fn
from .rules import CorruptionRules

raw_env = make_env_class(CorruptionRules)


def env(**config: Any) -> GameEnv:
    """corruption_v0 with `config` (num_players 3-7, reward, illegal_action, record_events,
    reporter_may_decline); the adapter validates actions itself, so no wrappers are added."""
    return raw_env(**config)


parallel_env = parallel_env_fn(env)
