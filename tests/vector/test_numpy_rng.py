"""numpy_rng's default_rng(seed) in numba draws exactly numpy's numbers (so engines deal numpy's games)."""
import numpy as np
import pytest

pytest.importorskip("numba")

from corruption_envs.vector import numpy_rng  # noqa: E402

SEEDS = [0, 1, 2**32 - 1, 2**32, 2**63 - 1] + [int(s) for s in np.random.default_rng(0).integers(2**63, size=500)]


def generator(seed: int) -> np.ndarray:
    g = np.zeros(numpy_rng.GENERATOR_SIZE, np.uint64)
    numpy_rng.seed_generator(g, seed)
    return g


def test_seeding_and_raw_output_are_pcg64s():
    for seed in SEEDS:
        g = generator(seed)
        assert [int(numpy_rng.next64(g)) for _ in range(4)] == \
            [int(v) for v in np.random.PCG64(seed).random_raw(4)], seed


@pytest.mark.parametrize("size", [24, 2, 1000])
def test_permutation_then_integers_are_default_rngs(size):
    out = np.zeros(size, np.int64)
    for seed in SEEDS:
        for n in (3, 7, 1000, 2**31 + 5):
            rng, g = np.random.default_rng(seed), generator(seed)
            numpy_rng.permutation_into(g, out)
            assert np.array_equal(out, rng.permutation(size)), (seed, size)
            # twice: the second draw starts from the 32-bit half the first one left
            assert [numpy_rng.integers(g, n) for _ in range(2)] == [int(rng.integers(n)) for _ in range(2)]
