"""Statistics for the benchmark on scipy.stats: intervals of a mean and the gate's paired test.

Wilson intervals of win rates live in `corruption_envs.evaluation` (the env package stays numpy-only, and
wins there may be fractional when ties are shared); they are re-exported here.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from scipy import stats

from corruption_envs.evaluation import Z95, wilson_interval

__all__ = ["Z95", "wilson_interval", "mean_interval", "paired_t_test", "PairedTest"]


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high): Student-t interval of the mean of independent `values`."""
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return (math.nan, math.nan, math.nan)
    m = float(x.mean())
    if x.size == 1:
        return (m, math.nan, math.nan)
    if np.all(x == x[0]):  # no spread: scipy returns nan, the interval is the point
        return (m, m, m)
    low, high = stats.t.interval(confidence, x.size - 1, loc=m, scale=stats.sem(x))
    return (m, float(low), float(high))


@dataclass(frozen=True)
class PairedTest:
    """A one-sided paired t-test of H0: mean(differences) <= 0 against H1: > 0."""

    n: int
    mean: float
    low: float  # 95% two-sided interval of the mean difference
    high: float
    t: float
    p_greater: float  # P-value for "the mean difference is > 0"
    p_less: float  # P-value for "the mean difference is < 0"

    def describe(self) -> str:
        return (
            f"mean diff {self.mean:+.4f} [95% CI {self.low:+.4f}, {self.high:+.4f}] over {self.n} "
            f"deals, t={self.t:+.2f}, p(>0)={self.p_greater:.2g}, p(<0)={self.p_less:.2g}"
        )


def paired_t_test(differences: Sequence[float]) -> PairedTest:
    """Paired (one-sample) t-test on per-deal differences; both one-sided p-values are returned."""
    d = np.asarray(differences, dtype=float)
    if d.size < 2:
        raise ValueError(f"a paired test needs at least 2 differences, got {d.size}")
    m, low, high = mean_interval(d)
    if np.all(d == d[0]):  # no spread: the sign decides
        t = math.copysign(math.inf, m) if m != 0 else 0.0
        p_gt = 0.0 if m > 0 else (1.0 if m < 0 else 0.5)
        return PairedTest(d.size, m, low, high, t, p_gt, 1.0 - p_gt if m != 0 else 0.5)
    greater = stats.ttest_1samp(d, 0.0, alternative="greater")
    less = stats.ttest_1samp(d, 0.0, alternative="less")
    return PairedTest(d.size, m, low, high, float(greater.statistic), float(greater.pvalue), float(less.pvalue))
