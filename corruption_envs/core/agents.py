"""Bots that act from an observation vector and an action mask only: the `Agent` protocol, the helpers
through which every caller plays one, and the pieces the games' bots are built from."""
from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from .aec import GameEnv
from .jit import njit


class Agent(Protocol):
    """Anything that picks a legal action from what its seat sees.

    A new bot must implement `act`. It may also have any of `OptionalAgentParts` (act_batch, bind, seed,
    reset, rng, start_game, member_policies with draw_member, any_player_count); callers never look for
    those themselves but go through the helpers below (`act_batch`, `bind_agent`, `seed_agent`, `use_rng`,
    `start_game`, `starts_each_game`, `is_mixture`, `plays_any_count`), which stand in for a part a bot
    lacks.
    """

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A legal action (action_mask[a] == 1) for one observation (D,) float32 and mask (A,) int8."""


class OptionalAgentParts(Agent, Protocol):
    """What a bot may have besides `act`, each used only if present (see `Agent`)."""

    rng: np.random.Generator  # its own chance; without seed(), seed_agent and use_rng replace it
    any_player_count: bool  # True: built for one player count, it plays every count's rows, mixed in a batch

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """(k,) int64 actions for k rows, exactly what `act` row by row returns on a bot seeded alike,
        its random draws made in row order; bots that decide one game at a time (searches) lack it."""

    def bind(self, env: GameEnv, seed: int | None = None) -> Any:
        """Ready itself to play in `env` (a policy builds its prior bot there, a search plans in it)."""

    def seed(self, seed: int | None) -> None:
        """Put itself in the state fixed by `seed`, so that a reused bot plays as a fresh one seeded alike."""

    def reset(self) -> None:
        """Forget what it kept from earlier games (seed_agent calls it before seeding)."""

    def start_game(self) -> None:
        """Called before each game it plays (a mixture draws the member that plays the game)."""

    def member_policies(self) -> list[Agent]:
        """A mixture's members as agents that play as it does: a batched caller seats one per game."""

    def draw_member(self) -> int:
        """The index into member_policies() of the member that plays the next game, drawn by weight."""


def act_batch(agent: Agent, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
    """(k,) int64: `agent.act_batch(observations, action_masks)`, or its `act` row by row for an agent
    without one (a search, a bot of your own): the same actions either way."""
    if hasattr(agent, "act_batch"):
        return np.asarray(agent.act_batch(observations, action_masks), np.int64)
    return np.fromiter((agent.act(o, m) for o, m in zip(observations, action_masks)), np.int64,
                       len(action_masks))


def bind_agent(agent: Agent, env: GameEnv, seed: int | None = None) -> None:
    """Ready `agent` to play in `env` (`bind`; nothing for an agent without it)."""
    if callable(getattr(agent, "bind", None)):
        agent.bind(env, seed)


def seed_agent(agent: Agent, seed: int | None) -> None:
    """Put a reused agent in the state fixed by `seed`: `reset()` then `seed(seed)` where it has them,
    else a new `rng` seeded by `seed` (an agent with neither draws no chance)."""
    if callable(getattr(agent, "reset", None)):
        agent.reset()
    if callable(getattr(agent, "seed", None)):
        agent.seed(seed)
    elif isinstance(getattr(agent, "rng", None), np.random.Generator):
        agent.rng = np.random.default_rng(seed)


def use_rng(agent: Agent, rng: np.random.Generator) -> None:
    """Make `agent` draw its chance from `rng` (shared, not copied); nothing for an agent without `rng`."""
    if hasattr(agent, "rng"):
        agent.rng = rng


def starts_each_game(agent: Agent) -> bool:
    """Whether `agent` must be told of each new game (`start_game`), so plays game by game."""
    return callable(getattr(agent, "start_game", None))


def start_game(agent: Agent) -> None:
    """Tell `agent` a new game starts (`start_game`; nothing for an agent without it)."""
    if starts_each_game(agent):
        agent.start_game()


def is_mixture(agent: Agent) -> bool:
    """Whether `agent` is a mixture, whose members (`member_policies()`) a batched caller seats per game
    by `draw_member()`."""
    return callable(getattr(agent, "member_policies", None))


def plays_any_count(agent: Agent) -> bool:
    """Whether `agent`, built for one player count, plays the rows of every count of its game (mixed in
    one `act_batch`) as the bot built for each count would (`any_player_count`)."""
    return getattr(agent, "any_player_count", False) is True


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


class RandomAgent:
    """Uniform over the legal actions, from its own seeded generator."""

    any_player_count = True

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return first_row(self.act_batch(observation[None], np.asarray(action_mask)[None]))

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        counts = legal_counts(action_masks, "RandomAgent")
        return nth_legal(action_masks, draws_below(self.rng, counts), counts)
