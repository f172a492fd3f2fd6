"""The core toy game with an event log: each seat privately told its card, every move announced.

Lets the terminal game's event filtering be checked on a game outside the package: tests register it
as 'eventful_toy' (`register_toy`), or run the terminal game with it registered (`tests.play.toy_cli`)."""
from __future__ import annotations

from corruption_envs.core import EVERYONE, EventLog, make_env_class
from corruption_envs.core.game import Game
from tests.core.toy import ToyRules


class EventfulToyRules(ToyRules):
    name = "eventful_toy"

    def new_game(self, rng):
        state = super().new_game(rng)
        state.events = EventLog.for_config(self.config)
        if state.events is not None:
            for p, c in enumerate(state.cards):
                state.events.say(p, f"player_{p}: you hold card {c}")
        return state

    def apply(self, state, action):
        player = self.current_player(state)
        super().apply(state, action)
        if state.events is not None:
            state.events.say(EVERYONE, f"player_{player} {('checks', 'raises')[action]}")


EventfulToyEnv = make_env_class(EventfulToyRules, "EventfulToyEnv")
NAME = "eventful_toy"
GAME = Game(name=NAME, about="the toy game with an event log, 2-4 players", raw_env=EventfulToyEnv,
            env=EventfulToyEnv)


def register_toy() -> None:
    import corruption_envs

    corruption_envs.register(GAME)
