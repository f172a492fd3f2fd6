"""The outcome figures every user reads from core/rewards.py: ties shared the same way in each."""
import itertools

import pytest

from corruption_envs.core.rewards import (
    pairwise_points,
    rank_points,
    ranks,
    score_shares,
    terminal_rewards,
    win_shares,
    winners,
)

KEYS = [(5, 1), (7, 0), (5, 1), (2, 3)]  # seat 1 first, seats 0 and 2 tied second, seat 3 last


def test_ranks_share_tied_places_and_every_figure_follows_them():
    r = ranks(KEYS)
    assert r == [2.5, 1.0, 2.5, 4.0]
    assert winners(r) == [1]
    assert win_shares(r) == [0.0, 1.0, 0.0, 0.0]
    assert [rank_points(x, 4) for x in r] == [0.5, 1.0, 0.5, 0.0]
    assert pairwise_points(r, 0) == [0.5, 0.0, 0.5, 1.0]


def test_shared_first_place_splits_the_win():
    r = ranks([(3,), (3,), (1,)])
    assert winners(r) == [0, 1]
    assert win_shares(r) == [0.5, 0.5, 0.0]
    assert terminal_rewards("win", [(3,), (3,), (1,)], [3, 3, 1]) == [0.5, 0.5, -1.0]


@pytest.mark.parametrize("keys", [list(p) for n in (2, 3, 4, 5) for p in itertools.product([(0,), (1,), (2,)], repeat=n)])
def test_figures_balance_at_every_table(keys):
    n = len(keys)
    r = ranks(keys)
    assert sum(r) == n * (n + 1) / 2  # shared places keep the total
    assert sum(rank_points(x, n) for x in r) == pytest.approx(n / 2)
    assert sum(win_shares(r)) == pytest.approx(1.0)
    assert sum(terminal_rewards("rank", keys, [0] * n)) == pytest.approx(0.0)
    win = terminal_rewards("win", keys, [0] * n)
    assert sum(x for x in win if x > 0) == pytest.approx(1.0)
    assert sum(x for x in win if x < 0) == pytest.approx(-1.0 if len(winners(r)) < n else 0.0)


def test_score_shares_and_an_empty_table():
    assert score_shares([1, 3]) == [0.25, 0.75]
    assert score_shares([0, 0, 0, 0]) == [0.25] * 4
    assert terminal_rewards("score", [(1,), (3,)], [1, 3]) == [0.25, 0.75]


def test_unknown_reward_mode_names_the_modes():
    with pytest.raises(ValueError, match="'elo' is not one of \\['win', 'rank', 'score'\\]"):
        terminal_rewards("elo", [(1,), (2,)], [1, 2])
