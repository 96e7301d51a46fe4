"""Confidence intervals for the arenas and benchmarks (pure; the standard library only).

- :func:`wilson`: the Wilson score interval of a share (successes out of trials);
- :func:`t_quantile`: Student's t quantile, from the exact t distribution for whole degrees
  of freedom (Abramowitz and Stegun 26.7.3-26.7.4, inverted by bisection);
- :func:`mean_interval`: a mean with its Student-t interval (normal-theory: mean +- t x s /
  sqrt(n), s the sample standard deviation).

>>> round(wilson(5, 10).low, 4)
0.2366
>>> round(t_quantile(0.975, 10), 3)
2.228
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

CONFIDENCE = 0.95
_LARGE_DF = 2000
"""Above this many degrees of freedom the quantile comes from its Cornish-Fisher expansion
(error below 1e-7 there) instead of the exact sum, which has one term per degree."""


@dataclass(frozen=True)
class Interval:
    """An estimate with its confidence interval; ``low``/``high`` are ``None`` when the
    data cannot give one (no trials; a mean of fewer than two values)."""

    estimate: float | None
    low: float | None
    high: float | None
    n: int

    def above_zero(self) -> bool:
        return self.low is not None and self.low > 0

    def to_json(self) -> dict[str, float | int | None]:
        return {"estimate": self.estimate, "low": self.low, "high": self.high, "n": self.n}


def normal_quantile(p: float) -> float:
    return statistics.NormalDist().inv_cdf(p)


def wilson(successes: int, trials: int, confidence: float = CONFIDENCE) -> Interval:
    """The Wilson score interval of the share ``successes / trials``."""
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    if trials == 0:
        return Interval(None, None, None, 0)
    z = normal_quantile(1 - (1 - confidence) / 2)
    p = successes / trials
    z2n = z * z / trials
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(p * (1 - p) / trials + z2n / (4 * trials))
    # Clamp rounding at the ends (0 successes gives exactly 0, all gives exactly 1).
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return Interval(p, low, high, trials)


def _t_central(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with ``df`` degrees of freedom (A&S 26.7.3, 26.7.4)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    s = math.sin(theta)
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for k in range(1, df // 2):
            term *= c2 * (2 * k - 1) / (2 * k)
            total += term
        return s * total
    if df == 1:
        return 2 * theta / math.pi
    term, total = 1.0, 1.0
    for k in range(1, (df - 1) // 2):
        term *= c2 * (2 * k) / (2 * k + 1)
        total += term
    return 2 / math.pi * (theta + s * math.cos(theta) * total)


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile (0.5 < p < 1) of Student's t with ``df`` >= 1 degrees of freedom."""
    if not 0.5 < p < 1 or df < 1:
        raise ValueError(f"t_quantile needs 0.5 < p < 1 and df >= 1, not p={p}, df={df}")
    if df > _LARGE_DF:
        z = normal_quantile(p)
        return (
            z
            + (z**3 + z) / (4 * df)
            + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
        )
    target = 2 * p - 1
    low, high = 0.0, 1.0
    while _t_central(high, df) < target:
        high *= 2
    for _ in range(100):
        mid = (low + high) / 2
        if _t_central(mid, df) < target:
            low = mid
        else:
            high = mid
        if high - low < 1e-12:
            break
    return (low + high) / 2


def mean_interval(values: Sequence[float], confidence: float = CONFIDENCE) -> Interval:
    """The mean with its Student-t interval (``low``/``high`` ``None`` below two values)."""
    n = len(values)
    if n == 0:
        return Interval(None, None, None, 0)
    mean = math.fsum(values) / n
    if n < 2:
        return Interval(mean, None, None, n)
    sd = statistics.stdev(values)
    half = t_quantile(1 - (1 - confidence) / 2, n - 1) * sd / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, n)
