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
