"""Bots that act from an observation vector and an action mask only."""
from __future__ import annotations

from typing import Protocol

import numpy as np


class Agent(Protocol):
    """Anything that picks a legal action from what its seat sees.

    `act_batch(observations (k, D) float32, action_masks (k, A) int8) -> (k,) int64` decides for k rows at
    once (the seat on turn in k games of a batched engine). Contract: it returns exactly what
    `[bot.act(o, m) for o, m in zip(observations, action_masks)]` returns on an identically seeded bot and
    leaves the bot's generator in the same state, i.e. its random draws are made in row order. Bots that
    only decide one game at a time (the searches) have no `act_batch`; `act_batch(bot, ...)` below plays
    either kind.
    """

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int: ...

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray: ...


def act_batch(bot: object, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
    """`bot.act_batch(observations, action_masks)`, or its `act` row by row for a bot without one (a
    search, a game's own bot): the same actions either way."""
    if hasattr(bot, "act_batch"):
        return bot.act_batch(observations, action_masks)
    return np.array([bot.act(o, m) for o, m in zip(observations, action_masks)], np.int64)


def legal_counts(action_masks: np.ndarray, bot: str) -> np.ndarray:
    """The number of legal actions of each row; a row with none is a caller's bug, named after `bot`."""
    counts = np.count_nonzero(action_masks, axis=1)
    if not counts.all():
        raise ValueError(f"{bot} was asked to act with an all-zero action mask")
    return counts


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

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return first_row(self.act_batch(observation[None], np.asarray(action_mask)[None]))

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        counts = legal_counts(action_masks, "RandomAgent")
        return nth_legal(action_masks, draws_below(self.rng, counts), counts)
