"""Construction & Corruption (Loach & Perrin, 2017), 3-7 players: seed 002 and the rulings."""
from .env import env, raw_env
from .heuristic import HeuristicAgent
from .rules import ConstructionRules

__all__ = ["ConstructionRules", "HeuristicAgent", "env", "raw_env"]
