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


@pytest.mark.parametrize("width", [3, 9, 64, 329, 1023, 1024, 2154, 4099])
@pytest.mark.parametrize("density", [0.002, 0.05, 0.6])
def test_random_legal_picks_the_legal_move_its_uniform_number_names(width, density):
    """Row i gets its legal move number floor(u_i * count_i), u the generator's next B uniforms: the
    word-by-word and the sparse (wide rows) counts, unaligned rows and legal moves in a row's first
    and last bytes included."""
    from corruption_envs.vector.sampling import random_legal

    gen = np.random.default_rng(width)
    masks = (gen.random((97, width)) < density).astype(np.int8)
    masks[np.arange(97), gen.integers(width, size=97)] = 1  # every row needs a legal move
    masks[0, 0] = masks[1, -1] = 1
    masks[2:8, :] = 0
    masks[2, -1] = masks[3, -2] = masks[4, 1] = 1  # alone in a row's last or first bytes
    masks[5:8, -3:] = 1
    masks[5:8, :2] = 1
    expected_rng, rng = np.random.default_rng(5), np.random.default_rng(5)
    u = expected_rng.random(97)
    counts = masks.sum(axis=1)
    expected = [np.flatnonzero(m)[min(int(x * c), c - 1)] for m, x, c in zip(masks, u, counts)]
    assert random_legal(masks, rng).tolist() == expected
    assert rng.bit_generator.state == expected_rng.bit_generator.state
