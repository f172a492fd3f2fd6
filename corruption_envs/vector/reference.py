"""The batched interface over the readable rules: B AEC games stepped one by one in Python.

Any registered game has it, one without a compiled engine included (a game of your own, the test suite's
toy game), so everything that plays many games (the match loop, training's rollout) runs on every
game. It is also the reference a compiled engine is held to: the same seed deals the same games.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..core.rewards import ranks, terminal_rewards
from ..core.rules import GameState, Rules
from .engine import WAIT, VectorEngine


class ReferenceEngine(VectorEngine):
    """B games of `rules_class`, each a state of the AEC rules (`states[i]`)."""

    def __init__(
        self,
        rules_class: type[Rules],
        num_envs: int,
        num_players: int | Sequence[int] | None = None,
        seed: int | None = None,
        **config: Any,
    ) -> None:
        self.rules_class = rules_class  # per instance: one class serves every game
        super().__init__(num_envs, num_players=num_players, seed=seed, **config)
        self.states: list[GameState | None] = [None] * self.num_envs

    def load(self, row: int, state: GameState) -> None:
        """Play on from a copy of an AEC state (a position a rule test built) in `row`."""
        n = state.n if hasattr(state, "n") else self.rules_class.default_players
        rules = self.rules.get(n)
        if rules is None:
            raise ValueError(f"a {n}-player state: this engine plays {list(self.player_counts)}")
        self.states[row] = rules.copy_state(state)
        self._batch.num_players[row] = n
        self._show(row)

    def _start(self, games: np.ndarray) -> None:
        counts = self._deal_counts(games)
        seeds = self._deal_seeds(games)
        for row, n, seed in zip(games, counts, seeds):
            self.states[row] = self.rules[int(n)].new_game(np.random.default_rng(int(seed)))
            self._show(row)

    def _show(self, row: int) -> None:
        """Write the acting seat's view of game `row` into the batch."""
        b, state = self._batch, self.states[row]
        rules = self.rules[int(b.num_players[row])]
        player = rules.current_player(state)
        b.current_player[row] = player
        b.observation[row] = rules.observe(state, player)
        b.action_mask[row] = rules.legal_mask(state)

    def _advance(self, actions: np.ndarray) -> None:
        b = self._batch
        b.rewards[:] = 0
        b.terminated[:] = False
        ended = []
        for row, action in enumerate(actions):
            if action == WAIT:
                continue
            state = self.states[row]
            n = int(b.num_players[row])
            rules = self.rules[n]
            rules.apply(state, int(action))
            if rules.is_over(state):
                keys, scores = rules.final_keys(state), rules.scores(state)
                b.scores[row] = 0
                b.ranks[row] = 0
                b.rewards[row, :n] = terminal_rewards(self.config["reward"], keys, scores)
                b.scores[row, :n] = scores
                b.ranks[row, :n] = ranks(keys)
                b.terminated[row] = True
                ended.append(row)
            else:
                self._show(row)
        if ended:
            self._start(np.asarray(ended, np.int64))
