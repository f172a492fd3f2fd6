"""What every batched engine shares: the batch's arrays, seeding, action checks and outcomes.

A game's engine subclasses `VectorEngine` and implements `_start(games)` (new games in those rows) and
`_advance(actions)` (one legal action in every row), both writing straight into the batch's arrays
(`self._batch`). The arrays are allocated once: `reset()` and `step()` return read-only views of them
(`engine.batch`) that the next call overwrites (copy what you keep; an engine may keep state in them, so
they are not for writing), and stepping allocates nothing that grows with the batch.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, NamedTuple, Sequence

import numpy as np

from ..core.errors import IllegalActionError, NotResetError
from ..core.layout import Layout
from ..core.rewards import REWARD_MODES
from ..core.rules import Rules


class Batch(NamedTuple):
    """The state of every game of a batch after `reset()` or `step()` (row i = game i).

    A game that ended on the last step shows `terminated[i]`, its player count `ended_players[i]`,
    and its final `rewards`, `scores` and `ranks` for its first `ended_players[i]` seats (the rest of
    those rows is not part of it); it is already replaced by a new game: its row of `observation`,
    `action_mask`, `current_player` and `num_players` is the new game's first decision.
    """

    observation: np.ndarray  # (B, D) float32: the acting seat's observation, as the AEC env's
    action_mask: np.ndarray  # (B, A) int8: exactly the legal actions of the acting seat
    current_player: np.ndarray  # (B,) int64: the seat to act
    num_players: np.ndarray  # (B,) int64: the game's player count
    rewards: np.ndarray  # (B, P) float32: per seat, nonzero only when the game ended on this step
    terminated: np.ndarray  # (B,) bool: the game ended on this step (and was reset)
    scores: np.ndarray  # (B, P) int64: final scores of the games that ended on this step
    ranks: np.ndarray  # (B, P) float64: their 1-based ranks, ties sharing the mean place
    ended_players: np.ndarray  # (B,) int64: the ended game's player count (0 where none ended)


REWARD_CODES = {mode: i for i, mode in enumerate(REWARD_MODES)}
WAIT = -1  # an action that leaves its game as it is for this step (the others move)  # how the kernels read config["reward"]


class VectorEngine(ABC):
    """B games of one game at once. Subclasses set `rules_class` and implement `_start`, `_advance`."""

    rules_class: ClassVar[type[Rules]]
    # whether `_advance` fills batch.ended_players itself (else step() does, from the counts before)
    advance_writes_ended_players: ClassVar[bool] = False
    # entries per row of `write_privileged` (0: the engine writes none)
    privileged_size: ClassVar[int] = 0

    def __init__(
        self,
        num_envs: int,
        num_players: int | Sequence[int] | None = None,
        seed: int | None = None,
        **config: Any,
    ) -> None:
        if not isinstance(num_envs, (int, np.integer)) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        counts = self._player_counts(num_players)
        if config.get("illegal_action", "raise") != "raise":
            raise ValueError(
                "a batched engine raises IllegalActionError on an illegal action and changes nothing: "
                "illegal_action='raise' is the only mode it takes"
            )
        config = {k: v for k, v in config.items() if k != "illegal_action"}
        # one Rules per count: validates the options and gives the layouts (the same at every count)
        self.rules = {n: self.rules_class(self.rules_class.make_config(num_players=n, **config)) for n in counts}
        self.config = self.rules[counts[0]].config
        self.player_counts = counts
        self.num_envs = int(num_envs)
        self.max_players = max(counts)
        first = self.rules[counts[0]]
        self.num_actions: int = first.num_actions
        self.observation_layout: Layout = first.observation_layout
        self.observation_size: int = first.observation_layout.size
        self.reward_code = REWARD_CODES[self.config["reward"]]
        B, P = self.num_envs, self.max_players
        self._batch = Batch(
            observation=np.zeros((B, self.observation_size), np.float32),
            action_mask=np.zeros((B, self.num_actions), np.int8),
            current_player=np.zeros(B, np.int64),
            num_players=np.zeros(B, np.int64),
            rewards=np.zeros((B, P), np.float32),
            terminated=np.zeros(B, bool),
            scores=np.zeros((B, P), np.int64),
            ranks=np.zeros((B, P), np.float64),
            ended_players=np.zeros(B, np.int64),
        )
        # what reset() and step() hand out: read-only views, since the kernels keep state in these arrays
        self.batch = Batch(*(_read_only(a) for a in self._batch))
        self._counts_before = np.zeros(B, np.int64)
        self.game_seeds = np.zeros(B, np.int64)  # the seed each current game was dealt from
        self.deal_index = np.full(B, -1, np.int64)  # which queued deal each row plays (-1: none)
        self._seeder = np.random.default_rng(seed)
        self._started = False
        self._queued_seeds = np.zeros(0, np.int64)
        self._queued_counts = np.zeros(0, np.int64)
        self._queued = 0  # deals queued so far (the next queued deal's index)
        # game seeds drawn ahead from the seeder, in its order, for a kernel that deals the games ending
        # on a step itself (`_seeds_ahead`); every other deal takes from here first, then the seeder
        self._pool = np.zeros(0, np.int64)
        self._allocate()

    def _player_counts(self, num_players: int | Sequence[int] | None) -> tuple[int, ...]:
        r = self.rules_class
        if num_players is None:
            return (r.default_players,)
        counts = (num_players,) if isinstance(num_players, (int, np.integer)) else tuple(num_players)
        bad = [n for n in counts if not isinstance(n, (int, np.integer)) or not r.min_players <= n <= r.max_players]
        if not counts or bad:
            raise ValueError(
                f"num_players={num_players!r}: {r.name} takes {r.min_players}-{r.max_players} players "
                "(one count, or a list of counts to draw from per game)"
            )
        return tuple(sorted({int(n) for n in counts}))

    # --- the batch --------------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> Batch:
        """Deal a new game in every row (reseeding the engine when `seed` is given)."""
        if seed is not None:
            self._seeder = np.random.default_rng(seed)
            self._pool = self._pool[:0]  # seeds drawn ahead from the old seeder
        b = self._batch
        b.rewards[:] = 0
        b.terminated[:] = False
        b.scores[:] = 0
        b.ranks[:] = 0
        b.ended_players[:] = 0
        self._start(np.arange(self.num_envs))
        self._started = True
        return self.batch

    def step(self, actions: Any) -> Batch:
        """Play one action in every game: `actions[i]` for the seat on turn in game i, or `WAIT` (-1)
        to leave game i as it is (its row of the batch unchanged, not terminated).

        Raises IllegalActionError, changing nothing, when the actions are not B integers each legal in
        its game's `action_mask` row (or WAIT).
        """
        if not self._started:
            raise NotResetError("this engine has no games yet: call reset(seed=...) first, then step()")
        actions = self.check_actions(actions)
        if self.advance_writes_ended_players:
            self._advance(actions)
            return self.batch
        b = self._batch
        np.copyto(self._counts_before, b.num_players)
        self._advance(actions)
        np.multiply(self._counts_before, b.terminated, out=b.ended_players)
        return self.batch

    def check_actions(self, actions: Any) -> np.ndarray:
        """`actions` as a (B,) int64 array, or IllegalActionError naming the games and actions at fault."""
        a = np.asarray(actions)
        B = self.num_envs
        if a.shape != (B,):
            raise IllegalActionError(
                f"step() takes one action per game: an array of shape ({B},), got shape {a.shape}"
            )
        if not np.issubdtype(a.dtype, np.integer):
            raise IllegalActionError(
                f"actions must be integers (an int array of shape ({B},)), got dtype {a.dtype}"
            )
        a = a.astype(np.int64, copy=False)
        out = np.flatnonzero((a < WAIT) | (a >= self.num_actions))
        if out.size:
            raise IllegalActionError(
                f"actions out of range [0, {self.num_actions}) in games {_some(out)}: {_some(a[out])} "
                f"(or {WAIT}, WAIT, to leave a game as it is)"
            )
        bad = np.flatnonzero((self._batch.action_mask[np.arange(B), a] == 0) & (a != WAIT))
        if bad.size:
            raise IllegalActionError(
                f"illegal actions in games {_some(bad)}: {_some(a[bad])} are not in those games' "
                "action_mask rows (engine.action_name(action) names one); nothing was played"
            )
        return a

    def action_name(self, action: int) -> str:
        """The AEC codec's name of `action`."""
        return self.rules[self.player_counts[0]].action_name(int(action))

    def write_privileged(self, out: np.ndarray, rows: np.ndarray) -> None:
        """Every seat's hidden information in games `rows`, seen from the seat on turn, into `out`
        (len(rows) x privileged_size): what a privileged critic reads in training, never a seat's view."""
        raise NotImplementedError(f"{self.rules_class.name}'s batched engine writes no privileged features")

    # --- seeding ----------------------------------------------------------------------------------
    def queue_deals(self, env_seeds: Sequence[int], num_players: Sequence[int] | int) -> None:
        """Deal these games next, in order, before drawing any: deal k is the game that
        `env(game, num_players=num_players[k]).reset(seed=env_seeds[k])` deals, and the row that plays
        it shows `deal_index[row] == k` (counting every deal queued since the engine was made). A
        match of seeded games meets the same deals as one played game by game on the AEC env."""
        seeds = np.asarray(env_seeds, np.int64).reshape(-1)
        counts = np.broadcast_to(np.asarray(num_players, np.int64), seeds.shape)
        bad = sorted({int(n) for n in counts} - set(self.player_counts))
        if bad:
            raise ValueError(f"deals at {bad} players: this engine plays {list(self.player_counts)}; "
                             "make it with num_players=[...] listing every count it will deal")
        game_seeds = np.array([np.random.default_rng(int(s)).integers(2**63) for s in seeds], np.int64)
        self._queued_seeds = np.concatenate([self._queued_seeds, game_seeds])
        self._queued_counts = np.concatenate([self._queued_counts, counts])
        self._queued += len(seeds)

    @property
    def deals_waiting(self) -> int:
        """Queued deals that no row has started yet."""
        return len(self._queued_seeds)

    def _deal_seeds(self, games: np.ndarray) -> np.ndarray:
        """New game seeds for rows `games`: queued deals first, then drawn in row order as the AEC
        env's reset draws one (with the same engine seed, row 0 of the first reset is
        `env.reset(seed=seed)`'s game)."""
        k = min(len(games), len(self._queued_seeds))
        if k == 0:  # the usual case, on every step where games end: no deal queued
            seeds = self._next_seeds(len(games))
            self.game_seeds[games] = seeds
            self.deal_index[games] = -1
            return seeds
        first = self._queued - len(self._queued_seeds)
        seeds = np.concatenate([self._queued_seeds[:k], self._next_seeds(len(games) - k)])
        self._queued_seeds = self._queued_seeds[k:]
        self.game_seeds[games] = seeds
        self.deal_index[games] = -1
        self.deal_index[games[:k]] = np.arange(first, first + k)
        return seeds

    def _next_seeds(self, size: int) -> np.ndarray:
        """The seeder's next `size` game seeds, those drawn ahead first."""
        ahead = min(size, len(self._pool))
        if ahead == 0:
            return draw_game_seeds(self._seeder, size)
        seeds = np.concatenate([self._pool[:ahead], draw_game_seeds(self._seeder, size - ahead)])
        self._pool = self._pool[ahead:]
        return seeds

    def _seeds_ahead(self) -> np.ndarray | None:
        """At least B of the seeder's next game seeds, for a step kernel to deal the games that end
        (it then calls `_used_ahead(k)`); None when new games need Python's deal: deals are queued, or
        each game draws its player count from the same seeder."""
        if len(self._queued_seeds) or len(self.player_counts) > 1:
            return None
        if len(self._pool) < self.num_envs:
            self._pool = np.concatenate([self._pool, draw_game_seeds(self._seeder, 4 * self.num_envs)])
        return self._pool

    def _used_ahead(self, k: int) -> None:
        """The step kernel dealt k games from `_seeds_ahead()`'s first seeds."""
        self._pool = self._pool[k:]

    def _deal_counts(self, games: np.ndarray) -> np.ndarray:
        """Player counts for new games in rows `games`: queued deals' first, then drawn (no draw when
        the engine has one count). Call before `_deal_seeds` for the same rows."""
        k = min(len(games), len(self._queued_counts))
        counts = self.player_counts
        if k == 0 and len(counts) == 1:  # the usual case: one count, no deal queued
            self._batch.num_players[games] = counts[0]
            return np.full(len(games), counts[0], np.int64)
        rest = len(games) - k
        drawn = np.full(rest, counts[0], np.int64) if len(counts) == 1 else \
            np.asarray(counts, np.int64)[self._seeder.integers(len(counts), size=rest)]
        n = np.concatenate([self._queued_counts[:k], drawn])
        self._queued_counts = self._queued_counts[k:]
        self._batch.num_players[games] = n
        return n

    # --- what a game implements ---------------------------------------------------------------------
    def _allocate(self) -> None:
        """Make the game's own arrays, once (`__init__` has set the config, counts and the batch)."""

    @abstractmethod
    def _start(self, games: np.ndarray) -> None:
        """Deal new games in rows `games` (int64 indices) and write their first decision into the batch."""

    @abstractmethod
    def _advance(self, actions: np.ndarray) -> None:
        """Apply one legal action per row (none where it is WAIT), fill rewards / terminated / scores /
        ranks (zero where the game goes on or waits), and start new games (`_start`) in the rows that
        ended."""


def draw_game_seeds(rng: np.random.Generator, size: int) -> np.ndarray:
    """`rng.integers(2**63, size=size)`, the same numbers without integers()'s ~10 µs of argument
    handling (a step where games end pays it): numpy draws each as the top 63 bits of one 64-bit word,
    as the range is a power of two (tests/vector/test_engine_contract.py holds the two equal)."""
    return (rng.bit_generator.random_raw(size) >> np.uint64(1)).view(np.int64)


def _read_only(array: np.ndarray) -> np.ndarray:
    view = array.view()
    view.flags.writeable = False
    return view


def _some(values: np.ndarray, limit: int = 10) -> str:
    """The first `limit` values of an array, for an error message."""
    shown = ", ".join(str(int(v)) for v in values[:limit])
    return f"[{shown}{', ...' if len(values) > limit else ''}] ({len(values)} in all)"
