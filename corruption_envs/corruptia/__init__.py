"""Corruptia (Muñoz & Casals, 2018), 3-5 players: propose bills, staff them, blackmail, vote."""
from __future__ import annotations

from typing import Any

from ..core.game import Game
from .env import CorruptiaRules, env, parallel_env, raw_env
from .heuristic import ExpertAgent, HeuristicAgent
from .invariants import check_invariants


def load_engine() -> Any:
    """The compiled batched engine class (imported here, on demand: it needs numba)."""
    from .engine import CorruptiaEngine

    return CorruptiaEngine


GAME = Game(
    name="corruptia",
    about="Corruptia (Muñoz & Casals, 2018), 3-5 players: propose bills, staff them, blackmail, vote",
    raw_env=raw_env,
    env=env,
    bots={"heuristic": HeuristicAgent, "expert": ExpertAgent},
    engine=load_engine,
    invariants=check_invariants,
)

__all__ = ["GAME", "CorruptiaRules", "ExpertAgent", "HeuristicAgent", "env", "parallel_env", "raw_env"]
