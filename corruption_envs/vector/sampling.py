"""Uniform legal moves for a whole batch in one compiled pass (random play, exploration, benchmarks).

One uniform number per row picks among that row's legal actions, so a batch costs a scan of its masks
rather than a random number per action."""
from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True)
def _pick(masks, u, out):  # pragma: no cover - compiled
    for i in range(masks.shape[0]):
        legal = 0
        for a in range(masks.shape[1]):
            legal += masks[i, a] != 0
        k = min(int(u[i] * legal), legal - 1)
        for a in range(masks.shape[1]):
            if masks[i, a] != 0:
                if k == 0:
                    out[i] = a
                    break
                k -= 1


def random_legal(masks: np.ndarray, rng: np.random.Generator, out: np.ndarray | None = None) -> np.ndarray:
    """One action per row of `masks` (B, A), uniform over its nonzeros; every row needs one."""
    if not masks.any(axis=1).all():
        raise ValueError("random_legal needs a legal action in every row of the masks")
    out = np.empty(len(masks), np.int64) if out is None else out
    _pick(masks, rng.random(len(masks)), out)
    return out
