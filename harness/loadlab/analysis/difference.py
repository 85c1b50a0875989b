"""How far a figure moved from one run (AGAINST, the baseline) to another (RUN), with its 95% interval: pure
functions of the numbers both runs measured, for `make compare` (report/changes.py reads the runs).

Two kinds of evidence, each from the field's own tools (SciPy), never a hand-written test:
- A capacity (the sustained rate, the knee) is known to lie in its bracket [last healthy, first unhealthy]: the
  change lies between the lowest and the highest ratio the two brackets allow. With REPEAT >= 2 on both sides,
  `scipy.stats.bootstrap` resamples the repetitions and widens that range by how far they land apart (the low end's
  2.5th percentile, the high end's 97.5th); with one repetition on a side the brackets alone give it.
- A latency at one offered rate both runs measured: its per-second values (timeline.csv's p99 of each second of
  the level), the bootstrap's 95% interval of the ratio of their medians for how far, and a rank test
  (`scipy.stats.mannwhitneyu`) said beside it. Whether it moved is the interval's to say (Change.detected), as for
  every figure; the rank test's p is reported, and where it would say otherwise that is said, not acted on. Per
  second, not per request: requests of one second share one queue, so they are not independent draws; seconds
  nearly are.

A change is in percent of AGAINST's value. An end with no bound (a mode that held the top of its stairs: its knee
lies somewhere above) stays None: a bound stays a bound.
"""

from __future__ import annotations

import math
import statistics
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

CONFIDENCE = 0.95
# The rank test's level: p below it is what the rank test alone would call a change (said, never acted on).
ALPHA = 1 - CONFIDENCE
RESAMPLES = 9999
# The same two runs always give the same interval: the bootstrap's resampling is seeded.
SEED = 20261127
# Fewer per-second values than this on a side: no rank test can reach ALPHA (4 against 4 seconds gives p >= 0.029).
MIN_SECONDS = 4


@dataclass(frozen=True)
class Span:
    """Where one run's figure lies: [low, high] rps; high None when it has no upper end (the mode held the top of
    its stairs), low 0 when no level was healthy. point: the figure as the run reports it (None: none)."""

    low: float
    high: float | None
    point: float | None


@dataclass(frozen=True)
class Change:
    """RUN against AGAINST in percent of AGAINST: point (None when the data give none), the 95% interval (an end
    None: no bound on that side), how it was found (words), and the rank test's p where there is one."""

    point_pct: float | None
    low_pct: float | None
    high_pct: float | None
    basis: str
    p_value: float | None = None

    @property
    def detected(self) -> bool:
        """A change, at 95%: the interval excludes 0%. The one rule, for every figure, the page, the console and
        FAIL_IF alike: the rank test's p is said beside it (rank_agrees) but decides nothing, so a row never reads
        "no change detected" and a change at once. The interval, because it is what every figure has (a capacity
        has no rank test) and what says how far; a rank test alone says neither."""
        return (self.low_pct is not None and self.low_pct > 0) or (self.high_pct is not None and self.high_pct < 0)

    @property
    def rank_agrees(self) -> bool | None:
        """Whether the rank test (p < ALPHA: a change) says what the interval says; None without a rank test."""
        if self.p_value is None:
            return None
        return (self.p_value < ALPHA) == self.detected

    @property
    def bounded(self) -> bool:
        return self.low_pct is not None and self.high_pct is not None


def capacity_change(run: Sequence[Span], against: Sequence[Span]) -> Change:
    """A capacity's change from each side's repetitions (one Span each; one when REPEAT=1)."""
    if not run or not against:
        raise ValueError("a capacity change needs at least one repetition on each side")
    run_points, against_points = _all_known([s.point for s in run]), _all_known([s.point for s in against])
    point = None
    if run_points is not None and against_points is not None and statistics.median(against_points) > 0:
        point = _pct(statistics.median(run_points) / statistics.median(against_points))
    run_low, against_high = [s.low for s in run], _all_known([s.high for s in against])
    run_high, against_low = _all_known([s.high for s in run]), [s.low for s in against]
    # lowest ratio: RUN's low ends over AGAINST's high ends (none: AGAINST held its top, its knee lies anywhere above)
    low = None if against_high is None else _pct(_ratio_of_medians(run_low, against_high))
    # highest: RUN's high ends over AGAINST's low ends (none: RUN held its top, or AGAINST had no healthy level)
    high = None if run_high is None or 0 in against_low else _pct(_ratio_of_medians(run_high, against_low))
    if low is None and high is None:
        return Change(point, low, high, "from the knee brackets: neither run's knee has an upper end")
    if len(run) < 2 or len(against) < 2:
        return Change(point, low, high, "from the knee brackets")
    if low is not None and against_high is not None:
        low = _pct(_bootstrap(run_low, against_high)[0])
    if high is not None and run_high is not None:
        high = _pct(_bootstrap(run_high, against_low)[1])
    basis = f"from the knee brackets and {len(run)} against {len(against)} repetitions (bootstrap)"
    return Change(point, low, high, basis)


def latency_change(run: Sequence[float], against: Sequence[float], what: str = "p99") -> Change:
    """A latency's change at one rate from its per-second values on each side (positive milliseconds)."""
    x = [float(v) for v in run if v is not None and v > 0]
    y = [float(v) for v in against if v is not None and v > 0]
    basis = f"per-second {what} ({len(x)} against {len(y)} seconds)"
    if not x or not y:
        return Change(None, None, None, f"{basis}: no second to compare")
    point = _pct(statistics.median(x) / statistics.median(y))
    if len(x) < MIN_SECONDS or len(y) < MIN_SECONDS:
        return Change(point, None, None, f"{basis}: too few for a rank test, {MIN_SECONDS} a side at least")
    p = float(stats.mannwhitneyu(x, y, alternative="two-sided").pvalue)
    low, high = _bootstrap(x, y)
    return Change(point, _pct(low), _pct(high), f"{basis}, bootstrap and Mann-Whitney U", p)


def _all_known(values: list[float | None]) -> list[float] | None:
    """The values when every one is known; None when one is not (a side with no end)."""
    known = [v for v in values if v is not None]
    return known if len(known) == len(values) else None


def _ratio_of_medians(top: Sequence[float], bottom: Sequence[float]) -> float:
    return statistics.median(top) / statistics.median(bottom)


def _median_ratio(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    ratio: np.ndarray = np.median(x, axis=axis) / np.median(y, axis=axis)  # numpy types a median on an axis Any
    return ratio


def _bootstrap(top: Sequence[float], bottom: Sequence[float]) -> tuple[float, float]:
    """The 95% percentile interval of median(top) / median(bottom), the two samples resampled independently. The
    percentile method, not BCa: with two or three repetitions, or seconds whose values all fall in one histogram
    bucket, BCa's jackknife degenerates (NaN), where the percentiles stay the plain range the samples allow."""
    if len(set(top)) == 1 and len(set(bottom)) == 1:  # nothing to resample: the one ratio there is
        return top[0] / bottom[0], top[0] / bottom[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", stats.DegenerateDataWarning)
        result = stats.bootstrap(
            (np.asarray(top, dtype=float), np.asarray(bottom, dtype=float)),
            _median_ratio,
            vectorized=True,
            paired=False,
            confidence_level=CONFIDENCE,
            n_resamples=RESAMPLES,
            method="percentile",
            rng=np.random.default_rng(SEED),
        )
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


def _pct(ratio: float) -> float:
    value = 100.0 * (ratio - 1.0)
    return value if math.isfinite(value) else math.nan
