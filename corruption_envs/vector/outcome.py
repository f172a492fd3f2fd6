"""The end of a game in a kernel: ranks and the config's terminal reward from each seat's final key,
the same figures as core/rewards.py (held to it by tests/vector/test_outcome.py)."""
from __future__ import annotations

import numba as nb
import numpy as np

WIN, RANK, SCORE = 0, 1, 2  # engine.REWARD_CODES: the order of core.rewards.REWARD_MODES


@nb.njit(cache=True)
def write_outcome(keys, scores, n, mode, rewards_out, ranks_out):  # pragma: no cover - compiled
    """Fill `ranks_out[:n]` (1-based, ties share the mean place) and `rewards_out[:n]` for one game
    whose seats' final keys are `keys[:n]` (int64, higher is better) and scores `scores[:n]`."""
    best = 1e18
    for i in range(n):
        above = 0
        level = 0
        for j in range(n):
            if keys[j] > keys[i]:
                above += 1
            elif keys[j] == keys[i]:
                level += 1
        ranks_out[i] = 1.0 + above + (level - 1) / 2.0
        if ranks_out[i] < best:
            best = ranks_out[i]
    if mode == SCORE:
        total = 0.0
        for i in range(n):
            total += scores[i]
        for i in range(n):
            rewards_out[i] = scores[i] / total if total > 0 else 1.0 / n
    elif mode == WIN:
        first = 0
        for i in range(n):
            if ranks_out[i] == best:
                first += 1
        for i in range(n):
            rewards_out[i] = 1.0 / first if ranks_out[i] == best else -1.0 / (n - first)
    else:
        for i in range(n):
            rewards_out[i] = 1.0 - 2.0 * (ranks_out[i] - 1.0) / (n - 1)


def outcome(keys: np.ndarray, scores: np.ndarray, mode: int) -> tuple[np.ndarray, np.ndarray]:
    """(rewards, ranks) of one game, through the kernel (for tests and Python callers)."""
    n = len(keys)
    rewards, ranks = np.zeros(n, np.float32), np.zeros(n, np.float64)
    write_outcome(np.asarray(keys, np.int64), np.asarray(scores, np.int64), n, mode, rewards, ranks)
    return rewards, ranks
