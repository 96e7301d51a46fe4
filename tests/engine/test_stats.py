"""engine/stats.py: the intervals the arenas report, against published values."""

from __future__ import annotations

import pytest

from engine.stats import mean_interval, t_quantile, wilson


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # Newcombe (1998), "Two-sided confidence intervals for the single proportion",
        # Table I, method 3 (Wilson score, no continuity correction).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_the_wilson_interval_matches_newcombes_table(
    successes: int, trials: int, low: float, high: float
) -> None:
    interval = wilson(successes, trials)
    assert interval.estimate == pytest.approx(successes / trials)
    assert interval.low == pytest.approx(low, abs=5e-5)
    assert interval.high == pytest.approx(high, abs=5e-5)
    assert interval.n == trials


def test_the_wilson_interval_has_closed_forms_at_the_ends_and_the_middle() -> None:
    z2 = 1.959963984540054**2
    assert wilson(0, 10).low == 0.0
    assert wilson(0, 10).high == pytest.approx(z2 / (10 + z2))
    assert wilson(10, 10).low == pytest.approx(10 / (10 + z2))
    assert wilson(10, 10).high == 1.0
    assert wilson(5, 10).low == pytest.approx(1 - wilson(5, 10).high)  # symmetric at 1/2


def test_a_share_of_no_trials_has_no_interval_and_impossible_counts_are_refused() -> None:
    none = wilson(0, 0)
    assert (none.estimate, none.low, none.high) == (None, None, None)
    with pytest.raises(ValueError, match="successes"):
        wilson(3, 2)


@pytest.mark.parametrize(
    ("p", "df", "expected"),
    [  # the usual printed table of Student's t (three decimals)
        (0.975, 1, 12.706),
        (0.975, 2, 4.303),
        (0.975, 5, 2.571),
        (0.975, 10, 2.228),
        (0.975, 30, 2.042),
        (0.975, 60, 2.000),
        (0.975, 120, 1.980),
        (0.995, 10, 3.169),
        (0.95, 20, 1.725),
        (0.975, 100_000, 1.960),
    ],
)
def test_t_quantiles_match_the_printed_table(p: float, df: int, expected: float) -> None:
    assert t_quantile(p, df) == pytest.approx(expected, abs=5e-4)


def test_the_exact_t_and_its_large_sample_expansion_meet() -> None:
    assert t_quantile(0.975, 2000) == pytest.approx(t_quantile(0.975, 2001), abs=1e-6)


def test_a_mean_has_a_student_t_interval() -> None:
    interval = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert interval.estimate == 2.5
    half = 3.182446 * (5 / 3 / 4) ** 0.5  # t(0.975, 3) x s / sqrt(n)
    assert interval.low == pytest.approx(2.5 - half, abs=1e-5)
    assert interval.high == pytest.approx(2.5 + half, abs=1e-5)
    assert interval.above_zero()
    assert not mean_interval([-1.0, 1.0, 0.5]).above_zero()


def test_too_few_values_give_no_interval() -> None:
    one = mean_interval([3.0])
    assert (one.estimate, one.low, one.high, one.n) == (3.0, None, None, 1)
    assert mean_interval([]).estimate is None
    assert not one.above_zero()
