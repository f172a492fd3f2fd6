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


@pytest.mark.parametrize("dtype", [np.int8, np.bool_, np.uint8])
def test_random_legal_equals_its_definition_at_every_narrow_width(dtype):
    """Dense rows of every width from 1 to 80 bytes (rows starting at every offset within a word,
    the batch's last word partial or whole), legal moves found from either end of a row: row i gets
    flatnonzero(row)[min(int(u_i * count_i), count_i - 1)], u the generator's next B uniforms."""
    from corruption_envs.vector.sampling import random_legal

    gen = np.random.default_rng(1)
    for width in range(1, 81):
        for rows in (1, 7, 33):
            masks = (gen.random((rows, width)) < gen.choice([0.05, 0.3, 0.9])).astype(dtype)
            masks[np.arange(rows), gen.integers(width, size=rows)] = 1
            expected_rng, rng = np.random.default_rng(width), np.random.default_rng(width)
            u = expected_rng.random(rows)
            counts = (masks != 0).sum(axis=1)
            expected = [np.flatnonzero(m)[min(int(x * c), c - 1)] for m, x, c in zip(masks, u, counts)]
            out = np.full(rows, -5, np.int64)
            assert random_legal(masks, rng, out) is out and out.tolist() == expected, (width, rows)
            assert rng.bit_generator.state == expected_rng.bit_generator.state


def test_random_legal_with_an_empty_row_changes_nothing():
    from corruption_envs.vector.sampling import random_legal

    for masks in (np.zeros((2, 0), np.int8), np.eye(3, 329, dtype=np.int8)[[0, 2, 1, 1]] * [[1], [1], [0], [1]]):
        rng, out = np.random.default_rng(3), np.full(len(masks), 7, np.int64)
        state = rng.bit_generator.state
        with pytest.raises(ValueError, match="every row"):
            random_legal(masks, rng, out)
        assert rng.bit_generator.state == state and (out == 7).all()
