"""Corruption (Bruno Faidutti, 2000): bribe officials for building contracts, 3-7 players."""
from .env import env, parallel_env, raw_env
from .expert import ExpertAgent
from .heuristic import HeuristicAgent
from .rules import CorruptionRules

__all__ = ["CorruptionRules", "ExpertAgent", "HeuristicAgent", "env", "parallel_env", "raw_env"]
