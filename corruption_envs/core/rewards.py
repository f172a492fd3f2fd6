"""Terminal rewards from the final ranking keys and scores, for the config's `reward` mode."""
from __future__ import annotations

from typing import Sequence


def terminal_rewards(mode: str, keys: Sequence[tuple], scores: Sequence[int]) -> list[float]:
    """Per seat: 'win' (+1 shared by the winners, -1 shared by the rest), 'rank' (+1 first to -1
    last, tied seats averaged) or 'score' (share of the table's total score)."""
    n = len(keys)
    if mode == "score":
        total = sum(scores)
        return [s / total if total else 1.0 / n for s in scores]
    if mode == "win":
        best = max(keys)
        winners = [i for i in range(n) if keys[i] == best]
        losers = n - len(winners)
        return [
            1.0 / len(winners) if keys[i] == best else (-1.0 / losers) for i in range(n)
        ]
    if mode == "rank":
        # positions 0..n-1 (0 = best); tied seats share the mean of their positions
        rewards = []
        for i in range(n):
            above = sum(1 for k in keys if k > keys[i])
            tied = sum(1 for k in keys if k == keys[i])
            position = above + (tied - 1) / 2
            rewards.append(1.0 - 2.0 * position / (n - 1))
        return rewards
    raise ValueError(f"reward mode {mode!r} is not one of 'win', 'rank', 'score'")


def ranks(keys: Sequence[tuple]) -> list[float]:
    """1-based rank per seat, tied seats sharing the mean of their places."""
    return [
        1 + sum(1 for k in keys if k > keys[i]) + (sum(1 for k in keys if k == keys[i]) - 1) / 2
        for i in range(len(keys))
    ]
