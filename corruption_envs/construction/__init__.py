"""Construction & Corruption (Loach & Perrin, 2017), 3-7 players: seed 002 and the rulings."""
from typing import Any

from .env import ConstructionRules, env, parallel_env, raw_env

__all__ = ["ConstructionRules", "HeuristicAgent", "env", "parallel_env", "raw_env"]


def __getattr__(name: str) -> Any:
    # imported lazily so that `python -m corruption_envs.construction.heuristic` runs cleanly
    if name == "HeuristicAgent":
        from .heuristic import HeuristicAgent

        return HeuristicAgent
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
