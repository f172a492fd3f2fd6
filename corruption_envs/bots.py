"""Build a bot from a short spec: 'random', 'heuristic', 'expert', a search ('ismcts:400', 'pimc:200'), or the
path of an exported policy file."""
from __future__ import annotations

from pathlib import Path

from .core import Agent, GameEnv
from .named_bots import bot_names, named_bot
from .policy import load_policy
from .core.game import game_of
from .search import is_search_spec, search_agent

SPECS = ("'random', 'heuristic', 'expert', 'ismcts[:BUDGET[:ROLLOUT]][@POLICY_FILE]', "
         "'pimc[:BUDGET[:ROLLOUT]]' (BUDGET: simulations, or seconds such as 1s) or the path of an exported "
         "policy file (.npz)")


def is_bot_name(spec: object) -> bool:
    """A bot the project names ('random', 'heuristic', 'expert' or a search spec), not a policy file:
    what a config may name as an opponent, a baseline or a teacher. Whether the game has it is
    `make_agent`'s to say."""
    return isinstance(spec, str) and (spec in bot_names() or is_search_spec(spec))


def make_agent(spec: str, env: GameEnv, seed: int | None = None, sample: bool | None = None) -> Agent:
    """A bot for `env`'s game: 'random', 'heuristic', 'expert' (the games that have one), a search (see
    `corruption_envs.search`), or a policy file exported by training (playing as its file says unless `sample` picks greedy (False) or
    sampling (True)). It never imports code: a 'module:attr' bot a person typed is the tournament's
    (`benchmarks.tournament.lookup.build_agent`).

    Raises ValueError naming the allowed specs for anything else (PolicyFileError for a bad file)."""
    env = env.unwrapped
    if not isinstance(spec, (str, Path)) or not str(spec).strip():
        raise ValueError(f"agent spec {spec!r} is empty or not text; use {SPECS}")
    if spec in bot_names():
        return named_bot(spec, game_of(env), env, seed)
    if is_search_spec(spec):
        return search_agent(spec, env, seed=seed)
    if Path(spec).is_file():
        return load_policy(spec, env, sample=sample, seed=seed)
    if Path(spec).exists():
        raise ValueError(f"agent spec {str(spec)!r} is a folder, not a policy file; use {SPECS}")
    raise ValueError(f"unknown agent {str(spec)!r}: use {SPECS}")
