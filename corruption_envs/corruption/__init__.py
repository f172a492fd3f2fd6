"""Corruption (Bruno Faidutti, 2000): bribe officials for building contracts, 3-7 players."""
from .env import CorruptionRules, env, parallel_env, raw_env
from .expert import ExpertAgent
from .heuristic import HeuristicAgent

__all__ = ["CorruptionRules", "ExpertAgent", "HeuristicAgent", "env", "parallel_env", "raw_env"]
