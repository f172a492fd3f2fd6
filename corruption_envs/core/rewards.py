"""Outcome figures of a finished game, computed here only: ranks from the final ranking keys, and from
the ranks the config's terminal reward, win shares, rank points, pairwise points and score shares.
The env, evaluation, training, search, play and the benchmarks all read them from this module.

Ranks are 1-based (1 = best) with tied seats sharing the mean of their places, so every figure below
shares ties the same way.
"""
from __future__ import annotations

from typing import Sequence

REWARD_MODES = ("win", "rank", "score")


def ranks(keys: Sequence[tuple]) -> list[float]:
    """1-based rank per seat (higher key = better), tied seats sharing the mean of their places."""
    return [
        1 + sum(1 for k in keys if k > keys[i]) + (sum(1 for k in keys if k == keys[i]) - 1) / 2
        for i in range(len(keys))
    ]


def winners(ranks: Sequence[float]) -> list[int]:
    """The seats sharing first place."""
    best = min(ranks)
    return [i for i, r in enumerate(ranks) if r == best]


def win_shares(ranks: Sequence[float]) -> list[float]:
    """1 / (number of winners) for the seats ranked first (ties shared), 0 for the rest."""
    first = winners(ranks)
    return [1.0 / len(first) if i in first else 0.0 for i in range(len(ranks))]


def rank_points(rank: float, num_players: int) -> float:
    """1 for first place down to 0 for last (ties share), so players of any table size compare."""
    return (num_players - rank) / (num_players - 1)


def pairwise_points(ranks: Sequence[float], me: int) -> list[float]:
    """Per seat: 1 if `me` finished above it, 1/2 if level, 0 if below."""
    return [1.0 if ranks[me] < r else 0.5 if ranks[me] == r else 0.0 for r in ranks]


def score_shares(scores: Sequence[float]) -> list[float]:
    """Each seat's share of the table's total score (an equal share when the total is not positive)."""
    total = sum(scores)
    return [s / total for s in scores] if total > 0 else [1.0 / len(scores)] * len(scores)


def terminal_rewards(mode: str, keys: Sequence[tuple], scores: Sequence[int]) -> list[float]:
    """Per seat: 'win' (+1 shared by the winners, -1 shared by the rest), 'rank' (+1 first to -1
    last, tied seats averaged) or 'score' (share of the table's total score)."""
    if mode == "score":
        return score_shares(scores)
    seat_ranks = ranks(keys)
    n = len(keys)
    if mode == "win":
        first = winners(seat_ranks)
        losers = n - len(first)
        return [1.0 / len(first) if i in first else -1.0 / losers for i in range(n)]
    if mode == "rank":
        return [1.0 - 2.0 * (r - 1) / (n - 1) for r in seat_ranks]
    raise ValueError(f"reward mode {mode!r} is not one of {list(REWARD_MODES)}")
