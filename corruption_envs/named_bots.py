"""The bots the games ship, by name: 'random' (every game), 'heuristic' (every game), 'expert' (Corruption).

Below the bot specs (`bots.py`), the policy files (a policy's prior is one of these bots) and the searches
(a playout policy is one), so each of them builds a named bot without importing the others.
"""
from __future__ import annotations

from .core import Agent, GameEnv, RandomAgent
from .registry import game_module, list_games

NAMED_BOTS = ("random", "heuristic", "expert")
# bot name -> the class a game's module defines for it
BOT_CLASSES = {"heuristic": "HeuristicAgent", "expert": "ExpertAgent"}


def named_bot(name: str, env: GameEnv, seed: int | None = None) -> Agent:
    """The bot `name` (one of NAMED_BOTS) for `env`'s game; ValueError when the game has none."""
    if name == "random":
        return RandomAgent(seed)
    if name not in BOT_CLASSES:
        raise ValueError(f"unknown bot {name!r}; the named bots are {NAMED_BOTS}")
    game = env.unwrapped.rules.name
    bot_class = getattr(game_module(game), BOT_CLASSES[name], None)
    if bot_class is not None:
        return bot_class(env.unwrapped, seed=seed)
    if name == "heuristic":
        raise ValueError(f"game {game!r} has no heuristic bot; use 'random' or a policy file")
    have = [g for g in list_games() if hasattr(game_module(g), BOT_CLASSES[name])]
    raise ValueError(f"game {game!r} has no {name} bot (only {', '.join(have)} has); "
                     "use 'heuristic', a search bot or a policy file")
