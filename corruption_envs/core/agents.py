"""Bots that act from an observation vector and an action mask only: the `Agent` base class every bot
is built on, and the pieces the games' bots are built from."""
from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from .aec import GameEnv
from .jit import njit


class Agent:
    """A bot: picks a legal action from what its seat sees (an observation vector and an action mask).

    Every bot has this one shape, as OpenSpiel's `pyspiel.Bot` (`step`, `restart`) has, so callers call
    each part on any bot. A bot defines `act` (one row) or `act_batch` (k rows), or both; every other part
    has a default that suits a bot keeping nothing between games but its generator `rng`.
    """

    any_player_count: ClassVar[bool] = False  # True: built for one player count, it plays every count's rows
    plays_on_batches: ClassVar[bool] = True  # False: it plans on the AEC game itself (a search), game by game
    rng: np.random.Generator  # its own chance (set by `seed` and `use_rng` where the bot set none)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.act is Agent.act and cls.act_batch is Agent.act_batch:
            raise TypeError(f"bot {cls.__name__} must define act(observation, action_mask) or "
                            "act_batch(observations, action_masks)")

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A legal action (action_mask[a] == 1) for one observation (D,) float32 and mask (A,) int8; by
        default the one row of `act_batch`."""
        return first_row(self.act_batch(np.asarray(observation)[None], np.asarray(action_mask)[None]))

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """(k,) int64 actions for k rows, exactly what `act` row by row returns on a bot seeded alike, its
        random draws made in row order; by default `act` row by row."""
        return np.fromiter((self.act(o, m) for o, m in zip(observations, action_masks)), np.int64,
                           len(action_masks))

    def bind(self, env: GameEnv, seed: int | None = None) -> Any:
        """Ready itself to play in `env` (a policy builds its prior bot there, a search plans in it)."""

    def seed(self, seed: int | None) -> None:
        """Play from now on as a fresh bot seeded by `seed` (tournaments reseed a reused bot per game)."""
        self.rng = np.random.default_rng(seed)

    def use_rng(self, rng: np.random.Generator) -> None:
        """Draw its chance from `rng` (shared, not copied), as a search's playout bots do."""
        self.rng = rng

    def start_game(self) -> None:
        """Called before each game it plays game by game (a mixture draws the member that plays it)."""

    def member_policies(self) -> list[Agent]:
        """The agents that play for it, one drawn per game (`draw_member`): a batched caller seats the one
        drawn and batches each one's rows. A mixture's members; by default itself alone."""
        return [self]

    def draw_member(self) -> int:
        """The index into member_policies() of the member that plays the next game (by default 0, no draw)."""
        return 0


def legal_counts(action_masks: np.ndarray, bot: str) -> np.ndarray:
    """The number of legal actions of each row; a row with none is a caller's bug, named after `bot`."""
    counts = np.count_nonzero(action_masks, axis=1)
    if not counts.all():
        raise ValueError(f"{bot} was asked to act with an all-zero action mask")
    return counts


# An observation is float32: a value is scaled back in float32 and rounded, as numpy rounds it.
@njit
def scaled_back(value: float, scale: float) -> int:
    """The integer an observation entry `value` encodes as value / scale (a bot's kernels read it so)."""
    return int(np.rint(value * np.float32(scale)))


def rows_by(values: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """(v, the rows where values == v) for each distinct v, ascending: a batch split by who decides it."""
    return [(v, np.flatnonzero(values == v)) for v in np.unique(values).tolist()]


def first_legal(action_masks: np.ndarray) -> np.ndarray:
    """Per row, its first legal action."""
    return np.argmax(action_masks != 0, axis=1)


def draws_below(rng: np.random.Generator, bounds: np.ndarray) -> np.ndarray:
    """One `rng.integers(bound)` per bound, in order. One call with an array of bounds draws exactly as
    that many calls (tests/core/test_batched_bots.py checks it), but costs more for a few rows."""
    if len(bounds) > 4:
        return rng.integers(bounds)
    return np.array([rng.integers(b) for b in np.asarray(bounds).tolist()], np.int64)


def nth_legal(action_masks: np.ndarray, picks: np.ndarray, counts: np.ndarray | None = None) -> np.ndarray:
    """Per row, the index of its picks[r]-th legal action (0-based, in action order); `counts`: the rows'
    numbers of legal actions, if known."""
    counts = np.count_nonzero(action_masks, axis=1) if counts is None else counts
    return legal_actions(action_masks)[np.cumsum(counts) - counts + picks]


def legal_actions(action_masks: np.ndarray) -> np.ndarray:
    """Every row's legal actions, row after row, each row's in action order."""
    # the flat nonzeros: twice as fast as np.nonzero of the 2-D mask
    return np.flatnonzero(action_masks) % action_masks.shape[1]


def first_row(actions: np.ndarray) -> int:
    """The one action of a batch of one row, as `act` returns it."""
    return int(actions[0])


class RandomAgent(Agent):
    """Uniform over the legal actions, from its own seeded generator."""

    any_player_count = True

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        counts = legal_counts(action_masks, "RandomAgent")
        return nth_legal(action_masks, draws_below(self.rng, counts), counts)
