"""A least-squares line through a few measured levels, with the band its own scatter allows.

A prediction read off such a line (where a role's CPU would fill the cores, where memory would run out) is only as
good as the line. The band is the 95% confidence band of the fitted mean at x (Student's t on the residuals, n − 2
degrees of freedom): it widens with the scatter around the line and with the distance from the rates measured, so a
far extrapolation from a few noisy levels gets the wide interval it deserves without a separate rule.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

# Two-sided 95% quantiles of Student's t by degrees of freedom (1..30); beyond, the normal's 1.96 is close enough.
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def t95(dof: int) -> float | None:
    if dof < 1:
        return None
    return _T95[dof - 1] if dof <= len(_T95) else 1.96


@dataclass(frozen=True)
class Line:
    """y = intercept + slope × x, fitted on the points xs, ys."""

    slope: float
    intercept: float
    xs: tuple[float, ...]
    ys: tuple[float, ...]

    @property
    def n(self) -> int:
        return len(self.xs)

    @property
    def mean_x(self) -> float:
        return sum(self.xs) / self.n

    @property
    def sxx(self) -> float:
        mx = self.mean_x
        return sum((x - mx) ** 2 for x in self.xs)

    @property
    def x_range(self) -> tuple[float, float]:
        return min(self.xs), max(self.xs)

    def at(self, x: float) -> float:
        return self.intercept + self.slope * x

    @property
    def r2(self) -> float | None:
        """The share of y's variation the line explains; None when y did not vary at all."""
        my = sum(self.ys) / self.n
        total = sum((y - my) ** 2 for y in self.ys)
        if total == 0:
            return None
        return 1.0 - self._residual_ss() / total

    def _residual_ss(self) -> float:
        return sum((y - self.at(x)) ** 2 for x, y in zip(self.xs, self.ys))

    def half_width(self, x: float) -> float | None:
        """Half the 95% band of the fitted mean at x; None without a residual to judge the scatter by (2 points)."""
        t = t95(self.n - 2)
        return None if t is None else self._half_width(t, x)

    def _half_width(self, t: float, x: float) -> float:
        s = math.sqrt(self._residual_ss() / (self.n - 2))
        return t * s * math.sqrt(1.0 / self.n + (x - self.mean_x) ** 2 / self.sxx)

    def slope_interval(self) -> tuple[float, float] | None:
        """The slope's 95% interval; None without a residual to judge the scatter by (2 points)."""
        t = t95(self.n - 2)
        if t is None:
            return None
        half = t * math.sqrt(self._residual_ss() / (self.n - 2) / self.sxx)
        return self.slope - half, self.slope + half

    def reaches(self, y: float) -> float | None:
        """The x at which the line reaches y; None when it does not rise."""
        if self.slope <= 0:
            return None
        return (y - self.intercept) / self.slope

    def reaches_within_band(self, y: float) -> tuple[float, float | None] | None:
        """(earliest, latest) x at which the true line could reach y: where the band's upper edge reaches it, and
        where its lower edge does (None: the lower edge never does — the slope is not told from flat, so there is
        no upper bound). None when the line does not rise or has no band (fewer than three points)."""
        point, t = self.reaches(y), t95(self.n - 2)
        if point is None or t is None:
            return None

        def upper(x: float) -> float:
            return self.at(x) + self._half_width(t, x)

        def lower(x: float) -> float:
            return self.at(x) - self._half_width(t, x)

        # The upper edge is convex: below y on [0, earliest), at or above it from there to the point.
        earliest = 0.0 if upper(0.0) >= y or point <= 0 else _bisect(lambda x: upper(x) >= y, 0.0, point)
        # The lower edge is concave: it rises for ever only when the slope beats the band's own widening.
        if self.slope * self.slope * self.sxx <= t**2 * self._residual_ss() / (self.n - 2):
            return earliest, None
        far = max(point, 1.0)
        while lower(far) < y:
            far *= 2
        return earliest, _bisect(lambda x: lower(x) >= y, max(point, 0.0), far)


def fit(xs: Sequence[float], ys: Sequence[float]) -> Line | None:
    """The least-squares line; None without two distinct x values."""
    n = len(xs)
    if n < 2 or n != len(ys):
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return None
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return Line(slope, my - slope * mx, tuple(xs), tuple(ys))


def _bisect(holds: Callable[[float], bool], low: float, high: float) -> float:
    """The smallest x in [low, high] at which holds(x) is true, for a condition false below it and true above."""
    for _ in range(100):
        mid = (low + high) / 2
        if holds(mid):
            high = mid
        else:
            low = mid
    return high
