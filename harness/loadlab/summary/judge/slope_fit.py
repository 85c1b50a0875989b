"""A cost per request as a slope: the least-squares line with its 95% interval, and whether the data can carry it
as a figure at all (an interval that includes zero, or an x that hardly moved, cannot)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from loadlab.analysis import linefit
from loadlab.summary.schema.fit_records import CostSlopeRecord

# A slope needs points whose in-flight (or rate) differ: at least this many, spanning this share of the highest.
MIN_POINTS = 3
MIN_SPAN_RATIO = 0.2


@dataclass(frozen=True)
class Fit:
    """A least-squares slope with its 95% interval (None with fewer than three points), R² and the x range."""

    slope: float
    interval: tuple[float, float] | None
    r2: float | None
    points: int
    x_range: tuple[float, float]

    def not_a_figure(self, min_x_span: float = 0.0, x_what: str = "") -> str | None:
        """Why the data cannot carry this slope as a figure, in words; None when it can. It cannot when its 95%
        interval is unknown or includes zero (the sign itself is not known), or when its x moved less than
        min_x_span (x_what: what x counts, e.g. "requests in flight")."""
        lo_x, hi_x = self.x_range
        if min_x_span and hi_x - lo_x < min_x_span:
            return (
                f"{range_words(lo_x, hi_x)} {x_what} are too narrow a range to fit a slope on (it needs at least "
                f"{min_x_span:g} apart)"
            )
        if self.interval is None:
            return "its points leave no interval, so how sure it is cannot be said"
        lo, hi = self.interval
        if lo <= 0 <= hi:
            return f"its 95% interval includes zero ({lo:,.4g} to {hi:,.4g}): the data does not tell its sign"
        return None

    def record(self, digits: int = 3, min_x_span: float = 0.0, x_what: str = "") -> CostSlopeRecord:
        """The slope as summary.json gives it, to `digits`."""
        return CostSlopeRecord(
            not_a_figure=self.not_a_figure(min_x_span, x_what),
            slope=round(self.slope, digits),
            interval=None if self.interval is None else [round(v, digits) for v in self.interval],
            r2=None if self.r2 is None else round(self.r2, 3),
            points=self.points,
            range=[round(v, 1) for v in self.x_range],
        )


def range_words(lo: float, hi: float) -> str:
    return f"{lo:,.1f}" if round(lo, 1) == round(hi, 1) else f"{lo:,.1f}–{hi:,.1f}"


def figure(fitted: Fit | None, digits: int, min_x_span: float = 0.0) -> float | None:
    """The slope as summary.json's figure: None when there is no fit or the data cannot carry it (Fit.not_a_figure)."""
    if fitted is None or fitted.not_a_figure(min_x_span) is not None:
        return None
    return round(fitted.slope, digits) if digits else round(fitted.slope)


def fit(points: Sequence[tuple[float, float]]) -> Fit | None:
    """The slope of y on x; None without MIN_POINTS points spanning MIN_SPAN_RATIO of the largest x."""
    if len(points) < MIN_POINTS:
        return None
    xs, ys = [x for x, _ in points], [y for _, y in points]
    if max(xs) <= 0 or max(xs) - min(xs) < MIN_SPAN_RATIO * max(xs):
        return None
    line = linefit.fit(xs, ys)
    if line is None:
        return None
    return Fit(line.slope, line.slope_interval(), line.r2, line.n, line.x_range)
