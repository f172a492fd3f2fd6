"""Corruption (Bruno Faidutti, 2000): bribe officials for building contracts, 3-7 players."""
from .env import env, raw_env
from .heuristic import HeuristicAgent
from .rules import CorruptionRules

__all__ = ["CorruptionRules", "HeuristicAgent", "env", "raw_env"]
