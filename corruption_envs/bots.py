"""Build a bot from a short spec: 'random', 'heuristic', 'expert', a search ('ismcts:400', 'pimc:200'), or the
path of an exported policy file."""
from __future__ import annotations

from pathlib import Path

from .core import Agent, GameEnv, RandomAgent

NAMED_BOTS = ("random", "heuristic", "expert")
SPECS = ("'random', 'heuristic', 'expert' (Corruption), 'ismcts[:SIMULATIONS[:ROLLOUT]][@POLICY_FILE]', 'pimc[:SIMULATIONS[:ROLLOUT]]' or the path "
         "of an exported policy file (.npz)")


def is_bot_name(spec: object) -> bool:
    """A bot the project names ('random', 'heuristic', 'expert' or a search spec), not a policy file:
    what a config may name as an opponent, a baseline or a teacher. Whether the game has it is
    `make_agent`'s to say."""
    from .search import is_search_spec

    return isinstance(spec, str) and (spec in NAMED_BOTS or is_search_spec(spec))


def make_agent(
    spec: str, env: GameEnv, seed: int | None = None, sample: bool | None = None, *, allow_code: bool = False
) -> Agent:
    """A bot for `env`'s game: 'random', 'heuristic', 'expert' (the games that have one), a search (see
    `corruption_envs.search`), or a policy file exported by training (playing as its file says unless `sample` picks greedy (False) or
    sampling (True)). With `allow_code` (a spec a person typed, never one read from a file), also
    'module:attr' naming a callable attr(env, seed=...) that returns a bot.

    Raises ValueError naming the allowed specs for anything else (PolicyFileError for a bad file)."""
    env = env.unwrapped
    if not isinstance(spec, (str, Path)) or not str(spec).strip():
        raise ValueError(f"agent spec {spec!r} is empty or not text; use {SPECS}")
    if spec == "random":
        return RandomAgent(seed)
    if spec == "heuristic":
        from . import game_module

        bot_class = getattr(game_module(env.rules.name), "HeuristicAgent", None)
        if bot_class is None:
            raise ValueError(f"game {env.rules.name!r} has no heuristic bot; use 'random' or a policy file")
        return bot_class(env, seed=seed)
    if spec == "expert":
        from . import game_module, list_games

        bot_class = getattr(game_module(env.rules.name), "ExpertAgent", None)
        if bot_class is None:
            have = [g for g in list_games() if hasattr(game_module(g), "ExpertAgent")]
            raise ValueError(f"game {env.rules.name!r} has no expert bot (only {', '.join(have)} has); "
                             "use 'heuristic', a search bot or a policy file")
        return bot_class(env, seed=seed)
    from .search import is_search_spec, search_agent

    if is_search_spec(spec):
        return search_agent(spec, env, seed=seed)
    if Path(spec).is_file():
        from .policy import load_policy

        return load_policy(spec, env, sample=sample, seed=seed)
    if Path(spec).exists():
        raise ValueError(f"agent spec {str(spec)!r} is a folder, not a policy file; use {SPECS}")
    if allow_code and ":" in str(spec):
        from .registry import import_attr

        return import_attr(str(spec))(env, seed=seed)
    raise ValueError(f"unknown agent {str(spec)!r}: use {SPECS}")
