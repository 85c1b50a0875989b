"""The tail a fan-out amplifies, predicted and checked level by level: a request waits for the slowest of its N calls,
so its q-quantile is one call's q^(1/N)-quantile (core/fanout.SlowestOf) plus what the service adds itself.

What the service adds is not modelled: it is read off the level's own median (the measured p50 less the slowest
call's median, with the p50's interval), and the tail is then predicted from it — so the median is the calibration,
p90 and p99 the checks. Each measured percentile carries the interval its count gives (the ranks a binomial puts
around n·q at 95%, read off the level's merged histogram); one its count cannot place (fewer than CHECKABLE answers
behind it: a p99 needs 100 at least) is not judged, said in words. A prediction agrees when its interval meets the
measured one. With a deadline a partial answer caps the wait at it; with `fail` the slow requests are errors, not in
the answered spectrum, so the tail is not predicted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

Z95 = 1.959964
# A percentile is judged only where the level has this many answers beyond it on each side of the rank.
CHECKABLE = 1.0
CHECKED = (90.0, 99.0)
CALIBRATION = 50.0


class Spectrum(Protocol):
    """A level's merged histogram of answered requests (HdrHistogram)."""

    def get_total_count(self) -> int: ...

    def get_value_at_percentile(self, percentile: float) -> float: ...


class Wait(Protocol):
    def quantile_ms(self, q: float) -> float: ...


@dataclass(frozen=True)
class Measured:
    percentile: float
    ms: float
    low_ms: float
    high_ms: float


@dataclass(frozen=True)
class Checked:
    """One tail percentile of one level: measured (with its interval), predicted (an interval from the median's), and
    whether they meet; None where the level's count cannot place the percentile."""

    percentile: float
    measured: Measured | None
    predicted_low_ms: float
    predicted_high_ms: float
    # A partial answer's deadline falls below the slowest call's percentile: the requests there answered at the
    # deadline, so the percentile is the deadline's handling (cancelling, answering), not the calls': not judged.
    cut: bool = False

    @property
    def agrees(self) -> bool | None:
        if self.measured is None or self.cut:
            return None
        return self.predicted_low_ms <= self.measured.high_ms and self.measured.low_ms <= self.predicted_high_ms


@dataclass(frozen=True)
class LevelTail:
    answered: int
    median: Measured
    # The service's own time per request beyond the slowest call, read off the median: its interval, ms.
    own_low_ms: float
    own_high_ms: float
    checks: tuple[Checked, ...]


def measured(spectrum: Spectrum, percentile: float) -> Measured | None:
    """The percentile with its 95% interval by ranks; None when the rank interval runs off the level's answers."""
    n = spectrum.get_total_count()
    if n <= 0:
        return None
    q = percentile / 100
    half = Z95 * math.sqrt(n * q * (1 - q))
    low_rank, high_rank = math.floor(n * q - half), math.ceil(n * q + half)
    if low_rank < CHECKABLE or high_rank > n - CHECKABLE:
        return None
    at = spectrum.get_value_at_percentile
    return Measured(percentile, float(at(percentile)), float(at(100 * low_rank / n)), float(at(100 * high_rank / n)))


def check(spectrum: Spectrum, wait: Wait, deadline_ms: float | None = None) -> LevelTail | None:
    """The level's tail against the slowest-of-N prediction; None when its median cannot be placed (too few answers).
    deadline_ms: a partial answer's cap (FANOUT_TIMEOUT_MS with partial)."""
    median = measured(spectrum, CALIBRATION)
    if median is None:
        return None
    slowest_median = wait.quantile_ms(CALIBRATION / 100)
    if deadline_ms is not None:  # a partial answer's wait is the slowest call's, cut at the deadline
        slowest_median = min(slowest_median, deadline_ms)
    own_low, own_high = max(0.0, median.low_ms - slowest_median), max(0.0, median.high_ms - slowest_median)
    checks = []
    for percentile in CHECKED:
        wait_ms = wait.quantile_ms(percentile / 100)
        cut = deadline_ms is not None and wait_ms >= deadline_ms
        if cut and deadline_ms is not None:
            wait_ms = deadline_ms
        measured_there = measured(spectrum, percentile)
        checks.append(Checked(percentile, measured_there, wait_ms + own_low, wait_ms + own_high, cut))
    return LevelTail(spectrum.get_total_count(), median, own_low, own_high, tuple(checks))
