"""The wait profile per level: a stacked bar per level of the coarse pass, its mean requests in flight placed by
where the wait agent's thread dumps found them (summary.json's `levels[i].waits`), a panel per mode on shared axes."""

from __future__ import annotations

from typing import TypedDict

from matplotlib.axes import Axes

from loadlab.analysis.knee_words import rate_words
from loadlab.analysis.wait_sites import CATEGORIES, CATEGORY_WORDS, OTHER
from loadlab.report.charts.chart_style import WAIT_COLORS
from loadlab.report.charts.grid import panels
from loadlab.report.charts.level_charts import TARGET_RATE
from loadlab.report.charts.marks import knee_line
from loadlab.summary.schema.level_records import LevelRecord, WaitsRecord
from loadlab.summary.verdicts.records import ModeRecord

NAME = "waits"
NO_PROFILE_MARK = "no profile"


class _TextStyle(TypedDict):
    """Keywords of a text's look, as matplotlib's text() takes them."""

    fontsize: float
    color: str


_MARK: _TextStyle = {"fontsize": 7, "color": "#888888"}
# A legend line's height as a share of a panel's axes (8 pt text in chart_style.PANEL_SIZE's plot area).
_LEGEND_ROW = 0.07


def profiled(level: LevelRecord) -> bool:
    """Whether the level has a profile that places requests: one with too few samples places none (its `too_few`
    says why), so drawing it would show a bar of nothing as if it had been measured."""
    waits = level.waits
    return waits is not None and not waits.too_few and bool(waits.sites)


def by_category(waits: WaitsRecord | None) -> dict[str, float]:
    """Mean requests per category, its sites summed; none without a profile. A category this page does not know (a
    newer summary's) is counted as `other`, so the bar's height stays every request the profile placed."""
    found: dict[str, float] = {}
    if waits is None:
        return found
    for site in waits.sites or []:
        category = site.category if site.category in CATEGORIES else OTHER
        found[category] = found.get(category, 0.0) + (site.mean_requests or 0.0)
    return found


def _bar_width(rates: list[float]) -> float:
    """Most of the gap between neighbouring levels, so bars never touch (the errors chart's rule)."""
    steps = [b - a for a, b in zip(rates, rates[1:]) if b > a]
    return 0.6 * (min(steps) if steps else max(rates[0] if rates else 1, 1) * 0.5)


def _rate(level: LevelRecord) -> float:
    """A drawn level's offered rate: chart() draws only the levels that have one."""
    assert level.target_rps is not None
    return level.target_rps


def bar_id(mode: str, category: str, rate: float) -> str:
    """A segment's id in the SVG (svg.to_svg prefixes it with the chart's name): one per mode, category and level,
    so the page's ids stay unique and a test can find the bars a reader sees."""
    return f"bar-{mode}-{category}-{rate:g}"


def _stack(ax: Axes, mode: str, shown: list[LevelRecord], width: float) -> None:
    """The bars, bottom to top in CATEGORIES order; each category is handed to matplotlib from the top down, so the
    legend (in the order artists were added) lists them as the reader sees them stacked."""
    stacks = [by_category(lv.waits) for lv in shown if lv.waits is not None]
    x = [_rate(lv) for lv in shown]
    bottoms: list[tuple[str, list[float], list[float]]] = []
    bottom = [0.0] * len(shown)
    for category in CATEGORIES:
        heights = [s.get(category, 0.0) for s in stacks]
        if any(heights):  # a category no level of this mode met stays out of its legend
            bottoms.append((category, heights, bottom))
            bottom = [b + h for b, h in zip(bottom, heights)]
    for category, heights, below in reversed(bottoms):
        bars = ax.bar(
            x,
            heights,
            width=width,
            bottom=below,
            color=WAIT_COLORS[category],
            label=f"{category}: {CATEGORY_WORDS[category]}",
        )
        for bar, lv, height in zip(bars, shown, heights):
            if height:
                bar.set_gid(bar_id(mode, category, _rate(lv)))


def _set_aside(ax: Axes, shown: list[LevelRecord], width: float) -> None:
    """A level whose instrument was saturated is hatched: where its requests waited was measured, but the knee is
    not placed on it (the level charts ring it grey for the same reason)."""
    aside = [lv for lv in shown if lv.set_aside and lv.waits is not None]
    if aside:
        ax.bar(
            [_rate(lv) for lv in aside],
            [sum(by_category(lv.waits).values()) for lv in aside],
            width=width,
            fill=False,
            hatch="//",
            edgecolor=_MARK["color"],
            linewidth=0,
            label="set aside (instrument saturated)",
        )


def _legend_rows(mode: ModeRecord) -> int:
    """How many lines the panel's legend has: each category met, the knee, the set-aside hatch."""
    shown = [lv for lv in mode.levels or [] if profiled(lv) and lv.waits is not None]
    met = {c for lv in shown for c, n in by_category(lv.waits).items() if n}
    return len(met) + (mode.first_unhealthy_level is not None) + any(lv.set_aside for lv in shown)


def _top(modes: dict[str, ModeRecord]) -> float | None:
    """The shared y axis's top: the tallest bar with room above it for the legend's lines, since grid.panels puts
    the legend in the upper left, where a tall bar at a low rate (the stairs stopped past the knee) would sit."""
    peaks = [
        sum(by_category(lv.waits).values())
        for m in modes.values()
        for lv in m.levels or []
        if profiled(lv) and lv.waits is not None
    ]
    if not peaks or max(peaks) <= 0:
        return None
    legend = min(_LEGEND_ROW * max(_legend_rows(m) for m in modes.values()) + 0.04, 0.6)
    return max(peaks) / (1 - legend)


def chart(modes: dict[str, ModeRecord]) -> str:
    top = _top(modes)

    def draw(ax: Axes, mode: str, result: ModeRecord) -> bool:
        levels = [lv for lv in result.levels or [] if lv.target_rps is not None]
        shown = [lv for lv in levels if profiled(lv)]
        width = _bar_width([_rate(lv) for lv in levels])
        ax.set_axisbelow(True)  # the grid behind the bars, so a thin category's sliver is not crossed out by it
        _stack(ax, mode, shown, width)
        _set_aside(ax, shown, width)
        for lv in levels:
            if not profiled(lv):
                # A gap alone reads as zero requests: the level is named as unmeasured where its bar would stand.
                ax.text(_rate(lv), 0, NO_PROFILE_MARK, rotation=90, ha="center", va="bottom", **_MARK)
        knee = next((lv for lv in levels if lv.index == result.first_unhealthy_level), None)
        if knee is not None:
            # Behind the bars: the knee's bar stays whole and the line rises out of it.
            knee_line(ax, _rate(knee), f"knee: first unhealthy level, {rate_words(_rate(knee))} rps", 0.5)
        if top is not None:
            ax.set_ylim(top=top)
        return bool(shown)

    return panels(NAME, "Where the requests waited per level", (TARGET_RATE, "requests in flight (mean)"), modes, draw)
