"""Build a bot from a short spec: 'random', 'heuristic', a search ('ismcts:400', 'pimc:200'), or the
path of an exported policy file."""
from __future__ import annotations

from pathlib import Path

from .core import Agent, GameEnv, RandomAgent


def make_agent(spec: str, env: GameEnv, seed: int | None = None) -> Agent:
    """A bot for `env`'s game: 'random', 'heuristic', a search (see `corruption_envs.search`), or a
    policy file exported by training."""
    env = env.unwrapped
    if spec == "random":
        return RandomAgent(seed)
    if spec == "heuristic":
        from . import game_module

        return game_module(env.rules.name).HeuristicAgent(env, seed=seed)
    from .search import is_search_spec, search_agent

    if is_search_spec(spec):
        return search_agent(spec, env, seed=seed)
    if Path(spec).exists():
        from .policy import load_policy

        return load_policy(spec, env, seed=seed)
    raise ValueError(
        f"unknown agent {spec!r}: use 'random', 'heuristic', 'ismcts[:SIMULATIONS[:ROLLOUT]]', "
        "'pimc[:SIMULATIONS[:ROLLOUT]]' or the path of an exported policy file"
    )
