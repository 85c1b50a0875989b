"""What the charts draw on top of the data: the knee, the prediction, limits, unhealthy and fine levels."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from matplotlib.axes import Axes
from matplotlib.ticker import FuncFormatter, LogLocator, NullLocator

from loadlab.analysis.prediction import interval_text
from loadlab.report.charts.chart_style import COLORS
from loadlab.report.series import gaps
from loadlab.summary.schema.level_records import LevelRecord
from loadlab.summary.verdicts.records import ModeRecord


def limit_line(ax: Axes, y: float, label: str, color: str = COLORS["limit"], linewidth: float = 1) -> None:
    """A horizontal line the data is judged against (a threshold, or what was asked for): dotted."""
    ax.axhline(y, color=color, linestyle=":", linewidth=linewidth, label=label)


def knee_line(ax: Axes, x: float, label: str | None, zorder: float = 2) -> None:
    """Where the first unhealthy level starts (on a rate axis: the knee; on a time axis: its first second).
    zorder: below 1 it runs behind bars, so a bar at the knee stays whole and the line shows above it."""
    ax.axvline(x, color=COLORS["knee"], linestyle="--", linewidth=1, label=label, zorder=zorder)


def log_y(ax: Axes) -> None:
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 3.0, 5.0)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_locator(NullLocator())


def knee_and_prediction(ax: Axes, mode: ModeRecord) -> None:
    if mode.collapsed and mode.sustained_rps:
        knee_line(ax, mode.sustained_rps, f"knee: sustained {mode.sustained_rps:g} rps")
    by = mode.predicted.predicted_by or "model"
    band = mode.predicted.interval_rps
    if band and band[0] is not None and band[0] <= 0:
        # no figure at all (the project's rule): its words only
        ax.plot([], [], linestyle="none", label=f"{by} prediction: its interval reaches zero, no figure")
        return
    if mode.predicted.rps:
        ax.axvline(
            mode.predicted.rps,
            color=COLORS["prediction"],
            linestyle=":",
            linewidth=1.2,
            label=f"{by} prediction {mode.predicted.rps:g} rps",
        )
        prediction_interval(ax, band, by)


def prediction_interval(ax: Axes, band: Sequence[float | None] | None, by: str) -> None:
    """The prediction's interval as a hatched band, not only its point: how sure it is is part of it. An interval
    with no upper end runs to the panel's edge and says so (one reaching zero is words only: knee_and_prediction)."""
    low, high = band or (None, None)
    if low is None:
        return
    if high is None:
        right = ax.get_xlim()[1]
        if right > low:
            ax.axvspan(low, right, **_BAND, label=f"{by} predicted {interval_text(low, None)} (no upper end)")
            ax.set_xlim(right=right)  # the band says "no end": it must not stretch the axis
        return
    if high > low:
        ax.axvspan(low, high, **_BAND, label=f"{by} predicted {interval_text(low, high)} (its 95% interval)")


class _BandStyle(TypedDict):
    """Keywords of the prediction band's look, as matplotlib's axvspan() takes them."""

    facecolor: str
    edgecolor: str
    hatch: str
    alpha: float
    linewidth: float


_BAND: _BandStyle = {
    "facecolor": "none",
    "edgecolor": COLORS["prediction"],
    "hatch": "///",
    "alpha": 0.35,
    "linewidth": 0,
}


def fine_levels(ax: Axes, mode: ModeRecord) -> None:
    """The refinement passes' levels (REFINE=1) as diamonds, and the knee's bracket as a band."""
    fine = mode.fine_levels
    if fine:
        x, y = gaps(lv.target_rps for lv in fine), gaps(lv.ok_rps for lv in fine)
        ax.scatter(x, y, marker="D", s=16, color=COLORS["fine"], zorder=3, label="OK/s, fine levels")
        _crosses(ax, [(a, b) for lv, a, b in zip(fine, x, y) if not lv.healthy], zorder=4)
    interval = mode.knee.interval_rps
    if mode.collapsed and interval and interval[0] and interval[1] is not None:
        ax.axvspan(
            interval[0],
            interval[1],
            color=COLORS["knee"],
            alpha=0.18,
            linewidth=0,
            label=f"knee between {interval[0]:g} and {interval[1]:g} rps",
        )


def unhealthy(ax: Axes, levels: list[LevelRecord], x: Sequence[float], y: Sequence[float | None]) -> None:
    """Unhealthy levels as red crosses; a level set aside (its instrument was saturated: not the service's) as a
    grey ring, whatever its health."""
    kept = [(lv, a, b) for lv, a, b in zip(levels, x, y) if b is not None]
    bad = [(a, b) for lv, a, b in kept if not lv.healthy and not lv.set_aside]
    _crosses(ax, bad, zorder=3, label="unhealthy level")
    aside = [(a, b) for lv, a, b in kept if lv.set_aside]
    if aside:
        ax.scatter(
            [a for a, _ in aside],
            [b for _, b in aside],
            marker="o",
            s=70,
            facecolors="none",
            edgecolors=COLORS["offered"],
            zorder=3,
            label="set aside (instrument saturated)",
        )


def _crosses(ax: Axes, points: list[tuple[float, float]], zorder: int, label: str | None = None) -> None:
    """Unhealthy levels as red crosses over their points (label: once per panel, on the coarse levels)."""
    if points:
        x, y = [a for a, _ in points], [b for _, b in points]
        ax.scatter(x, y, marker="x", s=40, color=COLORS["unhealthy"], zorder=zorder, label=label)


def brownout_window(mode: ModeRecord | None) -> Sequence[float] | None:
    """PROFILE=brownout: [start, end) of the brownout in seconds of the measured phase, else None."""
    return mode.brownout.window_s if mode is not None and mode.brownout is not None else None


def brownout(ax: Axes, window: Sequence[float] | None, offset: float = 0, label: str | None = None) -> None:
    """The window the downstream was slow in, shaded: on every chart over time of a PROFILE=brownout run."""
    if window:
        ax.axvspan(
            offset + window[0], offset + window[1], color=COLORS["brownout"], alpha=0.25, lw=0, zorder=0, label=label
        )
