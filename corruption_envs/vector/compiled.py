"""What the numba engines share beyond `VectorEngine`: the actions' check in one compiled pass, and
random playouts in one compiled call (`play_random`)."""
from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

from ..core.errors import NotResetError
from . import numpy_rng
from .engine import WAIT, VectorEngine


@nb.njit(cache=True)
def all_legal(mask, actions):  # pragma: no cover - compiled
    """Whether every row's action is WAIT or in range and allowed by its mask row."""
    for i in range(actions.shape[0]):
        a = actions[i]
        if a != WAIT and (a < 0 or a >= mask.shape[1] or mask[i, a] == 0):
            return False
    return True


@nb.njit(cache=True, _nrt=False)
def pick_legal(g, m):  # pragma: no cover - compiled
    """A uniform legal action of the mask row m: the k-th nonzero for k = `Generator.integers(count)`
    drawn from the generator g (no draw when one action is legal)."""
    count = 0
    for a in range(m.shape[0]):
        count += m[a] != 0
    k = numpy_rng.integers(g, count) if count > 1 else 0
    for a in range(m.shape[0]):
        if m[a] != 0:
            if k == 0:
                return a
            k -= 1
    return -1


class CompiledEngine(VectorEngine):
    """Base of the numba engines: B legal int64 actions pass in one compiled scan of the masks (27 ns a
    decision, against 110 for numpy's fancy indexing); anything else gets the base's check and errors."""

    def check_actions(self, actions: Any) -> np.ndarray:
        a = np.asarray(actions)
        if a.shape == (self.num_envs,) and a.dtype == np.int64 and all_legal(self._batch.action_mask, a):
            return a
        return super().check_actions(actions)

    def play_random(self, playing: np.ndarray, seed: int) -> None:
        """Play the game of every row where `playing` (bool, one a row) to its end, each move uniform
        over the legal ones, drawn from `np.random.default_rng(seed)` (the games' own chance from
        their rows' generators, as in `step`), in one compiled call: rows in order, each to its end.
        The batch then reads as after one step on which exactly those games ended (their outcome, a
        new game dealt in each of those rows) and every other row waited."""
        if not self._started:
            raise NotResetError("play_random() plays the games of a running batch: call reset() first")
        rows = np.flatnonzero(np.asarray(playing, bool)).astype(np.int64)
        b = self._batch
        b.rewards[:] = 0
        b.terminated[:] = False
        b.ended_players[:] = 0
        if rows.size == 0:
            return
        generator = np.zeros(numpy_rng.GENERATOR_SIZE, np.uint64)
        numpy_rng.seed_generator(generator, int(seed))
        self._playouts(rows, generator)
        b.terminated[rows] = True
        b.ended_players[rows] = b.num_players[rows]
        self._start(rows)

    def _playouts(self, rows: np.ndarray, generator: np.ndarray) -> None:
        """Play rows `rows` to their ends by `pick_legal` moves from `generator` and write their
        rewards, scores and ranks into the batch (`play_random` deals their successors)."""
        raise NotImplementedError(f"{self.rules_class.name}'s engine has no compiled playout")
