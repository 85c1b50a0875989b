"""The charts the field reads: percentiles over time (Gatling's chart, from exact merged histograms) and the whole
latency spectrum at one offered rate (HdrHistogram's "latency by percentile")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import matplotlib
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator, NullLocator

from loadlab.analysis import hlog
from loadlab.analysis.hgrm import Distribution
from loadlab.report.charts.chart_style import COLORS, MODE_COLORS, PANEL_SIZE, STYLE
from loadlab.report.charts.marks import brownout, knee_line, log_y
from loadlab.report.charts.svg import to_svg
from loadlab.report.series import gaps
from loadlab.summary.schema.level_records import LevelRecord

OVER_TIME = [*(f"p{p:g}" for p in hlog.OVER_TIME), "max"]  # the lines, in percentiles.csv's order
SPECTRUM_TICKS = (50.0, 90.0, 99.0, 99.9, 99.99)  # the x axis: 1 / (1 - p), from 2 to 10,000


@dataclass(frozen=True)
class Segment:
    """One pass of a mode on the time axis: its seconds (percentiles.csv as columns), its levels, where it starts."""

    name: str  # "coarse" or refine-<k>
    series: dict[str, list[float | None]]
    levels: list[LevelRecord]
    offset: int
    first_unhealthy: int | None  # the number of its first unhealthy level (its `index`, counted from 1)
    stopped_early: bool
    brownout_window: Sequence[float] | None = None  # PROFILE=brownout: [start, end) seconds of the pass, shaded


def over_time(name: str, modes: dict[str, list[Segment]]) -> str:
    """A column per mode: the percentiles per second above (one log latency scale for all), errors per second below."""
    with matplotlib.rc_context({**STYLE, "svg.hashsalt": f"loadlab-{name}"}):
        fig = Figure(figsize=(PANEL_SIZE[0] * max(len(modes), 1), PANEL_SIZE[1] * 1.45))
        width, height = fig.get_figwidth(), fig.get_figheight()
        fig.subplots_adjust(left=0.75 / width, right=1 - 0.1 / width, bottom=0.5 / height, top=1 - 0.3 / height)
        grid = fig.subplots(
            2, max(len(modes), 1), sharex="col", sharey="row", squeeze=False, gridspec_kw={"height_ratios": (3, 1)}
        )
        for column, (mode, segments) in enumerate(modes.items()):
            top, bottom = grid[0][column], grid[1][column]
            top.set_title(f"Percentiles of OK responses per second — {mode}")
            for segment in segments:
                _draw_segment(top, bottom, segment, first=segment is segments[0])
            if not segments:
                top.text(0.5, 0.5, "no data", transform=top.transAxes, ha="center", va="center", color="#888888")
                continue
            if _any_latency(segments):
                log_y(top)
            else:  # every request failed: no latency at all, and a log scale has no place for zeros
                top.text(0.5, 0.5, "no OK response: no latency", transform=top.transAxes, ha="center", color="#888888")
            top.set_ylabel("latency (ms, log)")
            bottom.set_ylabel("errors/s (rate: rps)")
            bottom.set_xlabel("second of the measured phase (passes one after another)")
            bottom.set_ylim(0, max(bottom.get_ylim()[1], 1))  # no errors: an empty panel, not one of 0.04 errors
            top.legend(loc="upper left", ncols=3)
            for ax in (top, bottom):
                ax.tick_params(labelleft=True, labelbottom=True)
        return to_svg(fig, name)


def _any_latency(segments: list[Segment]) -> bool:
    columns = [line.replace(".", "_") + "_ms" for line in OVER_TIME]
    return any((v or 0) > 0 for segment in segments for c in columns for v in segment.series.get(c) or [])


def _draw_segment(top: Axes, bottom: Axes, segment: Segment, first: bool) -> None:
    seconds = [segment.offset + s for s in gaps(segment.series.get("second") or [])]
    for level in segment.levels:
        start, width = segment.offset + (level.first_second or 0), level.seconds or 0
        color = COLORS["knee_band"] if not level.healthy else COLORS["level_band"]
        for ax in (top, bottom):
            ax.axvspan(start, start + width, color=color, alpha=0.18 if (level.index or 1) % 2 else 0.35, lw=0)
        # The rate under the band, in the errors panel: the latency panel's top is the legend's and the tail's.
        bottom.text(
            start + width / 2,
            0.95,
            f"{level.target_rps:g}",
            transform=bottom.get_xaxis_transform(),
            ha="center",
            va="top",
            fontsize=6,
            rotation=90,
            color="#333333",
            zorder=5,
            bbox={"facecolor": "white", "alpha": 0.7, "linewidth": 0, "pad": 1},
        )
    for ax in (top, bottom):
        brownout(ax, segment.brownout_window, segment.offset, label="brownout" if ax is top and first else None)
    for line in OVER_TIME:
        column = line.replace(".", "_") + "_ms"
        top.plot(
            seconds,
            gaps(segment.series.get(column) or []),
            color=COLORS[line],
            linewidth=1 if line == "max" else 1.3,
            label=line if first else None,
        )
    bottom.bar(seconds, [v or 0 for v in segment.series.get("ko") or []], width=1, color=COLORS["errors"])
    if segment.name != "coarse":
        top.axvline(segment.offset, color="#555555", linewidth=0.8)
        top.text(segment.offset, 0.02, f" {segment.name}", transform=top.get_xaxis_transform(), fontsize=7)
    unhealthy = next((lv for lv in segment.levels if lv.index == segment.first_unhealthy), None)
    if unhealthy is not None:
        start = segment.offset + (unhealthy.first_second or 0)
        knee_line(top, start, f"first unhealthy level ({unhealthy.target_rps:g} rps)" if first else None)
    if segment.stopped_early and segment.levels:
        last = segment.levels[-1]
        end = segment.offset + (last.first_second or 0) + (last.seconds or 0)
        top.axvline(end, color=COLORS["unhealthy"], linewidth=1.2, label="early stop" if first else None)


@dataclass(frozen=True)
class Curve:
    """One mode's spectrum at a rate: its `.hgrm` rows and the request count behind them."""

    mode: str
    distribution: Distribution
    healthy: bool


def spectrum(name: str, title: str, curves: list[Curve]) -> str:
    """Every mode at one offered rate on one axes: latency against 1 / (1 - p), HdrHistogram's chart. The part of
    a curve finer than its requests allow (1 / (1 - p) above the count) is drawn thin and grey: no data there."""
    with matplotlib.rc_context({**STYLE, "svg.hashsalt": f"loadlab-{name}"}):
        fig = Figure(figsize=PANEL_SIZE)
        width, height = fig.get_figwidth(), fig.get_figheight()
        fig.subplots_adjust(left=0.75 / width, right=1 - 0.3 / width, bottom=0.53 / height, top=1 - 0.3 / height)
        ax = fig.subplots()
        ax.set_title(title)
        for index, curve in enumerate(curves):
            _draw_curve(ax, curve, MODE_COLORS[index % len(MODE_COLORS)])
        ax.set_xscale("log")
        ax.set_xlim(2, 1 / (1 - SPECTRUM_TICKS[-1] / 100))
        ax.xaxis.set_major_locator(FixedLocator([1 / (1 - p / 100) for p in SPECTRUM_TICKS]))
        ax.xaxis.set_major_formatter(matplotlib.ticker.FixedFormatter([f"{p:g}%" for p in SPECTRUM_TICKS]))
        ax.xaxis.set_minor_locator(NullLocator())
        log_y(ax)
        ax.set_xlabel("percentile (log scale of 1 / (1 − p))")
        ax.set_ylabel("latency of OK responses (ms, log)")
        ax.legend(loc="best")
        return to_svg(fig, name)


def _draw_curve(ax: Axes, curve: Curve, color: str) -> None:
    count = curve.distribution.total_count
    points = [(1 / (1 - p.percentile / 100), p.value_ms) for p in curve.distribution.points if p.percentile < 100]
    data = [(x, y) for x, y in points if x <= count]
    beyond = [(x, y) for x, y in points if x >= (data[-1][0] if data else 0)]
    health = "" if curve.healthy else " (unhealthy level)"
    if data:
        ax.plot([x for x, _ in data], [y for _, y in data], color=color, label=f"{curve.mode}{health}, {count:,} OK")
    if len(beyond) > 1:
        ax.plot([x for x, _ in beyond], [y for _, y in beyond], color="#aaaaaa", linewidth=0.8, linestyle=":")
