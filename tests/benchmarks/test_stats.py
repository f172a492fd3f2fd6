"""Interval and test values against textbook figures (Wilson 1927; Student t tables) and scipy.stats."""
import math

import pytest
from scipy import stats

from benchmarks.stats import mean_interval, paired_t_test, wilson_interval


@pytest.mark.parametrize(
    "successes, trials, low, high",
    [
        (7, 10, 0.3968, 0.8922),  # Newcombe (1998) table I
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (50, 100, 0.4038, 0.5962),
        (81, 263, 0.2553, 0.3662),  # Newcombe (1998) example
    ],
)
def test_wilson_interval_matches_published_values(successes, trials, low, high):
    lo, hi = wilson_interval(successes, trials)
    assert lo == pytest.approx(low, abs=1e-4) and hi == pytest.approx(high, abs=1e-4)


def test_wilson_interval_accepts_shared_ties_as_fractional_wins():
    lo, hi = wilson_interval(2.5, 10)
    assert lo < 0.25 < hi and wilson_interval(2, 10)[0] < lo < wilson_interval(3, 10)[0]


def test_wilson_interval_without_trials_is_uninformative():
    assert wilson_interval(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("successes, trials", [(7, 10), (0, 10), (10, 10), (81, 263), (500, 1000)])
def test_wilson_interval_agrees_with_scipy(successes, trials):
    ci = stats.binomtest(successes, trials).proportion_ci(method="wilson")
    assert wilson_interval(successes, trials) == pytest.approx((ci.low, ci.high), abs=1e-9)


def test_mean_interval_is_student_t():
    m, lo, hi = mean_interval([1.0, 2.0, 3.0, 4.0])
    half = 3.182446 * math.sqrt(5 / 3 / 4)  # t_{0.975, 3} * sd / sqrt(n)
    assert m == 2.5 and lo == pytest.approx(2.5 - half, abs=1e-5) and hi == pytest.approx(2.5 + half, abs=1e-5)


def test_paired_t_test_statistic_and_p_values():
    # differences with mean 1, sd sqrt(2/3), n = 4 -> t = sqrt(6) = 2.449490, df = 3, one-sided p = 0.045861
    r = paired_t_test([0.0, 1.0, 1.0, 2.0])
    assert r.t == pytest.approx(math.sqrt(6))
    assert r.p_greater == pytest.approx(0.045861, abs=1e-6) and r.p_greater + r.p_less == pytest.approx(1.0)


def test_paired_t_test_is_scipys_paired_test():
    a, b = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0], [2.0, 7.0, 1.0, 8.0, 2.0, 8.0]
    r = paired_t_test([x - y for x, y in zip(a, b)])
    ref = stats.ttest_rel(a, b, alternative="greater")
    assert r.t == pytest.approx(ref.statistic) and r.p_greater == pytest.approx(ref.pvalue)


def test_paired_t_test_without_spread_decides_by_sign():
    assert paired_t_test([0.5, 0.5, 0.5]).p_greater == 0.0
    assert paired_t_test([-0.5, -0.5]).p_less == 0.0
    assert paired_t_test([0.0, 0.0]).p_less == 0.5


def test_paired_t_test_needs_two_deals():
    with pytest.raises(ValueError, match="at least 2"):
        paired_t_test([1.0])
