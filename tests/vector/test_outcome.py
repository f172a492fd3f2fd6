"""The kernels' end-of-game figures are core/rewards.py's: ranks, and every reward mode."""
import numpy as np
import pytest

from corruption_envs.core.rewards import REWARD_MODES, ranks, terminal_rewards

pytest.importorskip("numba")
from corruption_envs.vector.outcome import outcome  # noqa: E402


@pytest.mark.parametrize("mode", REWARD_MODES)
def test_kernel_outcome_is_the_env_outcome(mode):
    rng = np.random.default_rng(0)
    for _ in range(300):
        n = int(rng.integers(3, 8))
        keys, scores = rng.integers(0, 4, n), rng.integers(0, 5, n)  # small ranges: many ties
        rewards, seat_ranks = outcome(keys, scores, REWARD_MODES.index(mode))
        as_tuples = [(int(k),) for k in keys]
        np.testing.assert_allclose(rewards, terminal_rewards(mode, as_tuples, list(scores)), atol=1e-6)
        np.testing.assert_array_equal(seat_ranks, ranks(as_tuples))


def test_random_legal_is_uniform_over_each_rows_legal_moves():
    from corruption_envs.vector.sampling import random_legal

    masks = np.zeros((3, 6), np.int8)
    masks[0, [1, 4]] = 1
    masks[1, :] = 1
    masks[2, 5] = 1
    rng = np.random.default_rng(0)
    picks = np.stack([random_legal(masks, rng) for _ in range(3000)])
    assert set(picks[:, 0]) == {1, 4} and abs((picks[:, 0] == 1).mean() - 0.5) < 0.05
    assert np.bincount(picks[:, 1], minlength=6).min() > 400 and (picks[:, 2] == 5).all()
    with pytest.raises(ValueError, match="every row"):
        random_legal(np.zeros((2, 3), np.int8), rng)
