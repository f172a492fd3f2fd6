"""Corruption (Bruno Faidutti, 2000): bribe officials for building contracts, 3-7 players."""
from __future__ import annotations

from typing import Any

from ..core.game import Game
from .env import CorruptionRules, env, parallel_env, raw_env
from .expert import ExpertAgent
from .heuristic import HeuristicAgent
from .invariants import check_invariants


def load_engine() -> Any:
    """The compiled batched engine class (imported here, on demand: it needs numba)."""
    from .engine import CorruptionEngine

    return CorruptionEngine


GAME = Game(
    name="corruption",
    about="Corruption (Bruno Faidutti, 2000): bribe officials for building contracts, 3-7 players",
    raw_env=raw_env,
    env=env,
    bots={"heuristic": HeuristicAgent, "expert": ExpertAgent},
    engine=load_engine,
    invariants=check_invariants,
)

__all__ = ["GAME", "CorruptionRules", "ExpertAgent", "HeuristicAgent", "env", "parallel_env", "raw_env"]
