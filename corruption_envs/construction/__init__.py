"""Construction & Corruption (Loach & Perrin, 2017), 3-7 players: seed 002 and the rulings."""
from __future__ import annotations

from typing import Any

from ..core.game import Game
from .env import ConstructionRules, env, parallel_env, raw_env
from .heuristic import AdaptiveAgent, ExpertAgent, HeuristicAgent, RaiderAgent
from .invariants import check_invariants


def load_engine() -> Any:
    """The compiled batched engine class (imported here, on demand: it needs numba)."""
    from .engine import ConstructionEngine

    return ConstructionEngine


GAME = Game(
    name="construction",
    about="Construction & Corruption (Loach & Perrin, 2017), 3-7 players: seed 002 and the rulings",
    raw_env=raw_env,
    env=env,
    bots={"heuristic": HeuristicAgent, "expert": ExpertAgent, "raider": RaiderAgent, "adaptive": AdaptiveAgent},
    engine=load_engine,
    invariants=check_invariants,
)

__all__ = ["GAME", "AdaptiveAgent", "ConstructionRules", "ExpertAgent", "HeuristicAgent", "RaiderAgent", "env",
           "parallel_env", "raw_env"]
