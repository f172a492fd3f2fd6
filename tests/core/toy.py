"""A tiny hidden-information game for testing the core adapter on its own, built only from the core's
public pieces as docs/adding-a-game.md describes (action layout, declared state, event log, visibility).

Each player is dealt a private card 0..4; in turn order, for `num_rounds` laps, each player raises
(+1 chip) or checks. The highest (chips + card) wins; equal keys tie.
"""
from __future__ import annotations

import numpy as np

from corruption_envs.core import (
    LIST, SHARED, ActionLayout, DeclaredState, EventLog, Layout, Option, Rules, int_range, make_env_class, sees_own,
)
from corruption_envs.core.game import Game

ACTIONS = ActionLayout()
ACTIONS.add("check", "check")
ACTIONS.add("raise", "raise")  # +1 chip: the action index is the chips added


class ToyState(DeclaredState):
    FIELDS = {"cards": LIST, "chips": LIST, "turn": SHARED}
    __slots__ = tuple(FIELDS)

    def __init__(self, rng: np.random.Generator, cards: list[int], chips: list[int], turn: int = 0,
                 events: EventLog | None = None) -> None:
        self.rng, self.events = rng, events
        self.cards, self.chips, self.turn = cards, chips, turn


class ToyRules(Rules):
    name = "toy"
    version = 0
    min_players = 2
    max_players = 4
    default_players = 3
    actions = ACTIONS
    options = {"num_rounds": Option(2, "laps of the table", **int_range(1, 5))}

    def __init__(self, config):
        super().__init__(config)
        self.observation_layout = lay = Layout()
        lay.add("my_card", 5)
        lay.add("chips", (self.max_players, 6))
        lay.add("turn", 1)

    def new_game(self, rng):
        n = self.num_players
        return ToyState(rng, [int(c) for c in rng.integers(0, 5, n)], [0] * n)

    def current_player(self, s):
        if s.turn >= self.num_players * self.config["num_rounds"]:
            return -1
        return s.turn % self.num_players

    def legal_mask(self, s):
        return np.ones(2, np.int8)

    def apply(self, s, action):
        s.chips[self.current_player(s)] += action
        s.turn += 1

    def final_keys(self, s):
        return [(s.chips[p] + s.cards[p],) for p in range(self.num_players)]

    def scores(self, s):
        return [s.chips[p] + s.cards[p] for p in range(self.num_players)]

    def observe(self, s, player):
        lay = self.observation_layout
        obs = np.zeros(lay.size, np.float32)
        obs[lay["my_card"].start + s.cards[player]] = 1
        chips = lay.view(obs, "chips")
        for k in range(self.num_players):
            chips[k, s.chips[(player + k) % self.num_players]] = 1
        obs[lay["turn"]] = s.turn / (self.num_players * self.config["num_rounds"])
        return obs

    def resample_hidden(self, s, player, rng):
        new = self.copy_state(s)
        new.rng = rng
        new.cards = [s.cards[p] if p == player else int(rng.integers(5)) for p in range(self.num_players)]
        if new.events is not None:  # the other seats' private events tell their old cards
            new.events = s.events.seen_by(player)
        return new

    def render(self, s, player=None):
        cards = [c if sees_own(player, p) else "?" for p, c in enumerate(s.cards)]
        return f"cards {cards} chips {s.chips}"


ToyEnv = make_env_class(ToyRules, "ToyEnv")
# what `corruption_envs.register(GAME)` makes playable by name (tests/toy_game.py registers it for a test)
GAME = Game(name="toy", about="a toy game of the tests: raise or check, 2-4 players", raw_env=ToyEnv, env=ToyEnv)
