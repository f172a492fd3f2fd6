"""The contract between a game's rules and the generic AEC adapter.

A game's rules know nothing of PettingZoo (pgx's init/step/observe split, OpenSpiel's State). A `Rules`
object is built once per env from a validated config and holds no game state: every game lives in a
state object that the rules create, read and mutate. Chance draws from `state.rng`, the one
`numpy.random.Generator` the game was started with, so a seed fixes a whole game.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, Protocol

import numpy as np

from .actions import ActionLayout
from .config import COMMON_OPTIONS, Option, int_range, resolve_config
from .events import EventLog
from .layout import Layout


class GameState(Protocol):
    """What the adapter needs of a state: its RNG and an optional event log."""

    rng: np.random.Generator
    # None unless config record_events=True (EventLog.for_config): what happened, each event for
    # everyone or one seat
    events: EventLog | None


class Rules(ABC):
    """One game's rules for one config.

    Subclasses set the class attributes (`actions`, the game's `ActionLayout`, among them) and implement
    the abstract methods. `__init__` must build `self.observation_layout`.
    """

    name: ClassVar[str]
    version: ClassVar[int]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int] = 4
    # Rule variants of this game (see docs/rules/<game>.md); reward etc. are added by `make_config`.
    options: ClassVar[dict[str, Option]] = {}

    actions: ClassVar[ActionLayout]  # every action index, named (the same at every player count)
    num_actions: int
    observation_layout: Layout

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self.num_players: int = config["num_players"]
        if hasattr(self, "actions"):
            self.num_actions = self.actions.size

    @classmethod
    def all_options(cls) -> dict[str, Option]:
        players = Option(
            cls.default_players,
            "number of players",
            **int_range(cls.min_players, cls.max_players),
        )
        return {"num_players": players, **COMMON_OPTIONS, **cls.options}

    @classmethod
    def make_config(cls, **given: Any) -> dict[str, Any]:
        """The full config: defaults overlaid with `given`; raises ValueError on a bad key or value."""
        return resolve_config(cls.name, cls.all_options(), given)

    # --- the game -------------------------------------------------------------------------------
    @abstractmethod
    def new_game(self, rng: np.random.Generator) -> GameState:
        """A fresh game whose chance is drawn from `rng` (kept as `state.rng`)."""

    @abstractmethod
    def current_player(self, state: GameState) -> int:
        """The seat to act, or -1 once the game is over."""

    @abstractmethod
    def legal_mask(self, state: GameState) -> np.ndarray:
        """int8 vector of length num_actions: 1 exactly for the legal actions of the player to act."""

    @abstractmethod
    def apply(self, state: GameState, action: int) -> None:
        """Play a legal `action` for the player to act, mutating `state` (chance from state.rng)."""

    @abstractmethod
    def final_keys(self, state: GameState) -> list[tuple]:
        """Per seat, the key that ranks players at the end (higher is better; equal keys tie)."""

    @abstractmethod
    def scores(self, state: GameState) -> list[int]:
        """Per seat, the game's own score (for the 'score' reward and reports)."""

    def copy_state(self, state: GameState) -> GameState:
        """An independent copy (RNG included) that shares no mutable part with `state`: a
        `DeclaredState` (core/state.py) copies itself."""
        return state.copy()

    # --- information ------------------------------------------------------------------------------
    @abstractmethod
    def observe(self, state: GameState, player: int) -> np.ndarray:
        """float32 vector laid out by `observation_layout`: a function of `player`'s information set."""

    @abstractmethod
    def resample_hidden(
        self, state: GameState, player: int, rng: np.random.Generator
    ) -> GameState:
        """A new state in which all that `player` cannot see is redrawn consistently with what it saw.

        The new state's future chance draws from `rng`.
        """

    def action_name(self, action: int, state: GameState | None = None) -> str:
        """A readable name of `action`; with `state`, filled in with what it refers to there."""
        return self.actions.name(action, state)

    @abstractmethod
    def render(self, state: GameState, player: int | None = None) -> str:
        """Readable text of the table, as `player` sees it (everything when None)."""

    def picture(self, state: GameState, player: int | None = None) -> np.ndarray:
        """HxWx3 uint8 picture of the table as `player` sees it (everything when None); needs Pillow.

        A game draws one by overriding this (its `picture.py`); the default says it has none."""
        raise NotImplementedError(f"{self.name} has no picture; render_mode='ansi' gives its text")

    # --- derived ----------------------------------------------------------------------------------
    def is_over(self, state: GameState) -> bool:
        return self.current_player(state) < 0
