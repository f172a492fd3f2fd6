"""Interval and test values against textbook figures (Wilson 1927; Student t tables)."""
import math

import pytest

from benchmarks.stats import mean_interval, paired_t_test, t_quantile, t_sf, wilson_interval


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


@pytest.mark.parametrize(
    "t, df, tail",
    [(2.0, 10, 0.036694), (2.228139, 10, 0.025), (1.644854, 1e7, 0.05), (-1.3, 4, 0.868274), (0.0, 3, 0.5)],
)
def test_student_t_tail_matches_tables(t, df, tail):
    assert t_sf(t, df) == pytest.approx(tail, abs=1e-6)


def test_student_t_quantile_inverts_the_tail():
    assert t_quantile(0.975, 9) == pytest.approx(2.262157, abs=1e-5)
    assert t_quantile(0.5, 4) == pytest.approx(0.0, abs=1e-6)


def test_mean_interval_is_student_t():
    m, lo, hi = mean_interval([1.0, 2.0, 3.0, 4.0])
    half = 3.182446 * math.sqrt(5 / 3 / 4)  # t_{0.975, 3} * sd / sqrt(n)
    assert m == 2.5 and lo == pytest.approx(2.5 - half, abs=1e-5) and hi == pytest.approx(2.5 + half, abs=1e-5)


def test_paired_t_test_statistic_and_p_values():
    # differences with mean 1, sd 1, n = 4 -> t = 2, df = 3, one-sided p = 0.0697
    r = paired_t_test([0.0, 1.0, 1.0, 2.0])
    sd = math.sqrt(2 / 3)
    assert r.t == pytest.approx(1.0 / (sd / 2))
    assert r.p_greater == pytest.approx(t_sf(r.t, 3)) and r.p_greater + r.p_less == pytest.approx(1.0)


def test_paired_t_test_without_spread_decides_by_sign():
    assert paired_t_test([0.5, 0.5, 0.5]).p_greater == 0.0
    assert paired_t_test([-0.5, -0.5]).p_less == 0.0
    assert paired_t_test([0.0, 0.0]).p_less == 0.5


def test_paired_t_test_needs_two_deals():
    with pytest.raises(ValueError, match="at least 2"):
        paired_t_test([1.0])
