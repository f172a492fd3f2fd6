"""A determinization that finds no consistent state is drawn again from the search's generator, never
from the truth; a draw that keeps failing reaches the caller as a ResampleError."""
import numpy as np
import pytest

from corruption_envs.core import ResampleError
from corruption_envs.search.base import RESAMPLE_TRIES, determinize


class FlakyRules:
    """Rules whose resample fails `failures` times, then returns the generator's first draw."""

    def __init__(self, failures: int) -> None:
        self.failures, self.calls = failures, 0

    def resample_hidden(self, state, player, rng):
        self.calls += 1
        if self.calls <= self.failures:
            raise ResampleError("no consistent state in budget")
        return int(rng.integers(2**31))


def test_a_failed_draw_is_retried_with_a_fresh_generator():
    rules = FlakyRules(RESAMPLE_TRIES - 1)
    drawn = determinize(rules, None, 0, np.random.default_rng(5))
    assert rules.calls == RESAMPLE_TRIES
    # the draw that succeeded used the generator's RESAMPLE_TRIES-th seed, not the first one again
    seeds = np.random.default_rng(5).integers(2**63, size=RESAMPLE_TRIES)
    assert drawn == int(np.random.default_rng(int(seeds[-1])).integers(2**31))
    assert drawn != int(np.random.default_rng(int(seeds[0])).integers(2**31))


def test_a_draw_that_keeps_failing_reaches_the_caller():
    rules = FlakyRules(RESAMPLE_TRIES)
    with pytest.raises(ResampleError, match="no consistent state"):
        determinize(rules, None, 0, np.random.default_rng(5))
    assert rules.calls == RESAMPLE_TRIES


def test_constructions_gift_search_failure_is_a_resample_error():
    from corruption_envs.construction.hidden import NoConsistentAmounts

    assert issubclass(NoConsistentAmounts, ResampleError)
