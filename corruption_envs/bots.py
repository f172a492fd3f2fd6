"""Build a bot from a short spec: 'random', 'heuristic', or the path of an exported policy file."""
from __future__ import annotations

from pathlib import Path

from .core import Agent, GameEnv, RandomAgent


def make_agent(spec: str, env: GameEnv, seed: int | None = None, sample: bool | None = None) -> Agent:
    """A bot for `env`'s game: 'random', 'heuristic', or a policy file exported by training (playing
    as its file says unless `sample` picks greedy (False) or sampling (True))."""
    env = env.unwrapped
    if spec == "random":
        return RandomAgent(seed)
    if spec == "heuristic":
        from . import game_module

        return game_module(env.rules.name).HeuristicAgent(env, seed=seed)
    if Path(spec).exists():
        from .policy import load_policy

        return load_policy(spec, env, sample=sample, seed=seed)
    raise ValueError(
        f"unknown agent {spec!r}: use 'random', 'heuristic' or the path of an exported policy file"
    )
