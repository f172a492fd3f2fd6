"""The bots the games name: 'random' (every game), and each game's own ('heuristic' in every shipped game,
'expert' in every shipped game), declared in its `Game.bots`.

Below the bot specs (`bots.py`), the policy files (a policy's prior is one of these bots) and the searches
(a playout policy is one), so each of them builds a named bot without importing the others.
"""
from __future__ import annotations

from .core import Agent, GameEnv
from .core.game import Game
from .registry import GAMES


def bot_names() -> tuple[str, ...]:
    """The bots the registered games name, 'random' first: what a config may name before its game is known."""
    return tuple(dict.fromkeys(name for game in GAMES.values() for name in game.bot_names))


def named_bot(name: str, game: Game, env: GameEnv, seed: int | None = None) -> Agent:
    """The bot `name` of `game` for `env`; ValueError naming what to use when the game has none."""
    if name in game.bot_names:
        return game.bot(name, env, seed)
    if name not in bot_names():
        raise ValueError(f"unknown bot {name!r}; the named bots are {bot_names()}")
    if name == "heuristic":
        raise ValueError(f"game {game.name!r} has no heuristic bot; use 'random' or a policy file")
    have = [g.name for g in GAMES.values() if name in g.bots]
    games = f"{', '.join(have[:-1])} and {have[-1]}" if len(have) > 1 else have[0]
    raise ValueError(f"game {game.name!r} has no {name} bot ({games} {'has' if len(have) == 1 else 'have'} one); "
                     "use 'heuristic', a search bot or a policy file")
