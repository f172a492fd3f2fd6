"""What the searches share: the searching seat's view of its env, determinizations, and playouts.

Search runs on the rules level (`rules.resample_hidden`, `rules.apply`), the same calls that
`GameEnv.resample_hidden` and `GameEnv.clone` wrap, without building an env per simulation.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core import GameEnv, GameState, Rules
from ..core.rewards import ranks

ROLLOUTS = ("random", "heuristic")


def rank_points(rules: Rules, state: GameState) -> list[float]:
    """Per seat at the end of a game: 1 for first, 0 for last, tied seats share their places."""
    n = rules.num_players
    return [(n - r) / (n - 1) for r in ranks(rules.final_keys(state))]


class Playout:
    """Plays a state to its end with one rollout policy for every seat; returns rank points."""

    def __init__(self, env: GameEnv, policy: str, rng: np.random.Generator) -> None:
        if policy not in ROLLOUTS:
            raise ValueError(f"rollout policy {policy!r} is not one of {ROLLOUTS}")
        self.rules = env.rules
        self.policy = policy
        self.rng = rng
        self.bots: list[Any] | None = None
        if policy == "heuristic":
            from .. import game_module

            bot_class = game_module(self.rules.name).HeuristicAgent
            self.bots = [bot_class(env, seed=0) for _ in range(self.rules.num_players)]

    def reseed(self, rng: np.random.Generator) -> None:
        """Draw all playout chance from `rng` (the heuristics' own generators too)."""
        self.rng = rng
        for bot in self.bots or ():
            if hasattr(bot, "rng"):
                bot.rng = rng

    def run(self, state: GameState) -> list[float]:
        rules, rng, bots = self.rules, self.rng, self.bots
        while (p := rules.current_player(state)) >= 0:
            mask = rules.legal_mask(state)
            if bots is None:
                legal = np.flatnonzero(mask)
                action = legal[rng.integers(legal.size)] if legal.size > 1 else legal[0]
            else:
                action = bots[p].act(rules.observe(state, p), mask)
            rules.apply(state, int(action))
        return rank_points(rules, state)


class SeatView:
    """The env a search bot plays in, read only through the acting seat's information set."""

    def __init__(self, env: GameEnv) -> None:
        self.env = env.unwrapped

    def acting_state(self, observation: np.ndarray) -> tuple[int, GameState]:
        """(acting seat, true state) of the env, after checking that `observation` is that seat's view:
        the bot reads the state only to redraw what the seat cannot see."""
        env = self.env
        rules, state = env.rules, env.game_state
        player = -1 if state is None else rules.current_player(state)
        if player < 0 or not np.array_equal(rules.observe(state, player), observation):
            raise ValueError(
                "a search bot must act in the env it was built for (make_agent(spec, env)) on that "
                "env's acting seat; the observation given is not the acting seat's view of that env"
            )
        return player, state

    def determinize(self, state: GameState, player: int, rng: np.random.Generator) -> GameState:
        """A state drawn from `player`'s information set, with fresh future chance from `rng`."""
        seed = int(rng.integers(2**63))
        return self.env.rules.resample_hidden(state, player, np.random.default_rng(seed))
