"""Tournament lookup: the game's env and player counts, agents built from their specs, and the checks
run before any game (an unknown game, a count out of range, an agent that does not load)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from corruption_envs.bots import is_bot_name, make_agent
from corruption_envs.core import Agent
from corruption_envs.registry import import_attr, rules_class
from corruption_envs.registry import make_env as registry_env


def make_env(game: str, num_players: int, **config: Any) -> Any:
    """The env of a registered game, or of an env class named 'module:attr'."""
    return registry_env(game, num_players=num_players, **config)


def default_players(game: str) -> int:
    return rules_class(game).default_players


def player_counts(game: str, asked: Sequence[str] | None) -> list[int]:
    """`asked` as ints ('all' = the game's whole range); the game's default when nothing is asked."""
    rules = rules_class(game)
    if not asked:
        return [rules.default_players]
    if list(asked) == ["all"]:
        return list(range(rules.min_players, rules.max_players + 1))
    bad = [n for n in asked if not n.isdigit()]
    if bad:
        raise ValueError(f"--players {' '.join(bad)}: give player counts as integers, or 'all'")
    return [int(n) for n in asked]


def build_agent(spec: str, env: Any, seed: int | None = None) -> Any:
    """A bot from a spec typed on the command line: any `make_agent` spec, or 'module:attr' naming a
    callable attr(env, seed=...) that returns a bot (a person typed it, so its module is imported; a spec
    read from a file goes to `make_agent`, which imports nothing)."""
    if ":" in spec and not is_bot_name(spec) and not Path(spec).exists():
        bot = import_attr(spec)(env.unwrapped, seed=seed)
        if not isinstance(bot, Agent):
            raise ValueError(f"agent spec {spec!r} made a {type(bot).__name__}, not a bot: subclass "
                             "corruption_envs.core.Agent (define act or act_batch)")
        return bot
    return make_agent(spec, env, seed)


def agent_problem(game: str, spec: str, num_players: int) -> str | None:
    """Why `spec` cannot play `game` with `num_players`, or None when it can."""
    try:
        build_agent(spec, make_env(game, num_players), seed=0)
    except Exception as e:  # noqa: BLE001 (any failure to load the agent is the finding we report)
        return f"{type(e).__name__}: {e}"
    return None


def setup_problem(game: str, asked_players: Sequence[str] | None, specs: Sequence[str]) -> str | None:
    """Why a tournament of `specs` at `asked_players` cannot be played (unknown game, player count out
    of the game's range, an agent that does not load), checked before any game; None when it can."""
    try:
        players = player_counts(game, asked_players)
        for n in players:
            make_env(game, n)
    except (ValueError, ImportError, AttributeError) as e:
        return f"{type(e).__name__}: {e}"
    for n in players:
        for spec in dict.fromkeys(specs):
            problem = agent_problem(game, spec, n)
            if problem:
                return f"agent {spec!r} cannot play {game} with {n} players: {problem}"
    return None




def agent_labels(specs: Sequence[str]) -> list[str]:
    """Unique display names: the spec itself, with #2, #3 ... on repeats."""
    seen: dict[str, int] = {}
    labels = []
    for s in specs:
        seen[s] = seen.get(s, 0) + 1
        labels.append(s if seen[s] == 1 else f"{s}#{seen[s]}")
    return labels
