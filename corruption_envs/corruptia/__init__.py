"""Corruptia (Muñoz & Casals, 2018), 3-5 players: propose bills, staff them, blackmail, vote."""
from .env import CorruptiaRules, env, parallel_env, raw_env
from .heuristic import HeuristicAgent

__all__ = ["CorruptiaRules", "HeuristicAgent", "env", "parallel_env", "raw_env"]
