"""Small, dependency-free statistics for the benchmark: intervals and the gate's paired test.

Kept free of scipy so the [bench] extra stays light; tests pin the values against textbook tables.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from corruption_envs.evaluation import Z95, wilson_interval

__all__ = ["Z95", "wilson_interval", "mean_interval", "paired_t_test", "t_quantile", "t_sf"]


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high): Student-t interval of the mean of independent `values`."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = math.fsum(values) / n
    if n == 1:
        return (m, math.nan, math.nan)
    sd = math.sqrt(math.fsum((v - m) ** 2 for v in values) / (n - 1))
    half = t_quantile(0.5 + confidence / 2, n - 1) * sd / math.sqrt(n)
    return (m, m - half, m + half)


# --- Student t distribution (regularized incomplete beta, Numerical Recipes' continued fraction) ---
def _betacf(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-14:
            break
    return h


def _betai(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(lbt) * _betacf(a, b, x) / a
    return 1.0 - math.exp(lbt) * _betacf(b, a, 1.0 - x) / b


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with `df` degrees of freedom."""
    tail = 0.5 * _betai(df / 2.0, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1.0 - tail


def t_quantile(q: float, df: float) -> float:
    """The q-quantile of Student's t (bisection on t_sf; q in (0, 1))."""
    lo, hi = -1e3, 1e3
    for _ in range(200):
        mid = (lo + hi) / 2
        if 1.0 - t_sf(mid, df) < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


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
    n = len(differences)
    if n < 2:
        raise ValueError(f"a paired test needs at least 2 differences, got {n}")
    m, low, high = mean_interval(differences)
    sd = math.sqrt(math.fsum((d - m) ** 2 for d in differences) / (n - 1))
    if sd == 0.0:
        t = math.copysign(math.inf, m) if m != 0 else 0.0
        p_gt = 0.0 if m > 0 else (1.0 if m < 0 else 0.5)
        p_lt = 0.0 if m < 0 else (1.0 if m > 0 else 0.5)
        return PairedTest(n, m, low, high, t, p_gt, p_lt)
    t = m / (sd / math.sqrt(n))
    return PairedTest(n, m, low, high, t, t_sf(t, n - 1), t_sf(-t, n - 1))
