"""Did it move? Each figure two runs share, RUN against AGAINST, with its 95% interval (analysis/difference.py):
per shared mode its sustained rate and its knee (from the knee brackets at any stairs, and from the repetitions
when both runs have REPEAT >= 2), and at each offered rate both ran its p50 and p99 (from the level's per-second
values in timeline.csv). The console, the comparison page and the FAIL_IF gate read these rows."""

from __future__ import annotations

import csv
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from loadlab.analysis.difference import Change, Span, capacity_change, latency_change
from loadlab.report.comparability import Shared, Side
from loadlab.report.formats import rps
from loadlab.report.spectrum_section import Place
from loadlab.summary.schema.level_records import LevelRecord
from loadlab.summary.verdicts.records import ModeRecord

CAPACITY = ("sustained", "knee")
LATENCY = ("p50", "p99")
# each figure of LATENCY as its level gives it (the level's whole histogram)
LEVEL_LATENCY: dict[str, Callable[[LevelRecord], float | None]] = {
    "p50": lambda lv: lv.p50_ms,
    "p99": lambda lv: lv.p99_ms,
}


@dataclass(frozen=True)
class Row:
    """One figure of one mode in both runs, and its change. rate: the offered rate a latency was read at."""

    mode: str
    figure: str
    run_text: str
    against_text: str
    change: Change
    rate: float | None = None

    @property
    def name(self) -> str:
        """As FAIL_IF names it: `virtual.sustained`, `platform.p99@300`."""
        return f"{self.mode}.{self.figure}" + (f"@{self.rate:g}" if self.rate is not None else "")


def rows(run: Side, against: Side, shared: Shared) -> list[Row]:
    """Every shared mode's rows: sustained, knee, then p50 and p99 at each rate both ran, rising."""
    out = []
    for mode in shared.modes:
        for figure in CAPACITY:
            change = capacity_change(spans_of(run, mode, figure), spans_of(against, mode, figure))
            run_text, against_text = (capacity_text(side.summary.modes[mode], figure) for side in (run, against))
            out.append(Row(mode, figure, run_text, against_text, change))
        for rate, places in shared.rates[mode].items():
            out += [latency_row(mode, figure, rate, places) for figure in LATENCY]
    return out


def held_rate(shared: Shared, mode: str) -> float | None:
    """The highest rate both runs held healthy in this mode: where a plain `p99` is read."""
    rates = shared.rates.get(mode) or {}
    held = [r for r, places in rates.items() if all(p.level.healthy for p in places)]
    return max(held, default=None)


def headline_rows(found: list[Row], shared: Shared) -> list[Row]:
    """The rows the console prints: each mode's capacity, and its latency at the highest rate both held."""
    return [r for r in found if r.rate is None or r.rate == held_rate(shared, r.mode)]


def spans_of(side: Side, mode: str, figure: str) -> list[Span]:
    """Where the figure lies in each valid repetition of the side (REPEAT > 1), else in its one run."""
    spread = side.summary.spread_of(mode)
    rows_ = (spread.repetitions if spread else None) or []
    found = [_span(r.knee_interval_rps, r.sustained_rps, figure) for r in rows_ if r.valid]
    if found:
        return found
    result = side.summary.modes[mode]
    return [_span(result.knee.interval_rps, result.sustained_rps, figure)]


def _span(interval: list[float | None] | None, sustained: float | None, figure: str) -> Span:
    """[last healthy, first unhealthy]; a mode with no bracket held the top of its stairs: at least its sustained
    rate, no upper end."""
    if interval and len(interval) == 2 and interval[1] is not None:
        low, high = float(interval[0] or 0), float(interval[1])
    else:
        low, high = float(sustained or 0), None
    if figure == "sustained":
        return Span(low, high, float(sustained) if sustained else None)
    return Span(low, high, (low + high) / 2 if high is not None and low > 0 else None)


def capacity_text(result: ModeRecord, figure: str) -> str:
    interval = result.knee.interval_rps or []
    closed = len(interval) == 2 and interval[1] is not None
    if figure == "sustained":
        if not result.sustained_rps:  # 0 or none: the first level was already unhealthy
            return "no healthy level"
        return f"{rps(result.sustained_rps)} rps" + ("" if closed else " (held the top)")
    if not closed:
        return f"above {rps(result.sustained_rps)} rps (held the top)"
    if interval[0] is None:
        return f"below {rps(interval[1])} rps"
    return f"{rps(interval[0])}–{rps(interval[1])} rps"


def latency_row(mode: str, figure: str, rate: float, places: list[Place]) -> Row:
    """A percentile at one rate: each run's level figure (its whole histogram) shown, the per-second values compared."""
    run, against = places
    change = latency_change(per_second(run, f"{figure}_ms"), per_second(against, f"{figure}_ms"), what=figure)
    run_text, against_text = (_ms(LEVEL_LATENCY[figure](p.level)) for p in (run, against))
    return Row(mode, figure, run_text, against_text, change, rate)


def per_second(place: Place, column: str) -> list[float]:
    """The level's seconds in its pass's timeline.csv (`second` from first_second, `seconds` of them), one value
    each; seconds with no successful request have none."""
    path = Path(place.folder, place.pass_name, "timeline.csv") if place.pass_name else place.folder / "timeline.csv"
    first, count = place.level.first_second, place.level.seconds
    if first is None or not count:
        return []
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows_ = list(csv.DictReader(f))
    except OSError:
        return []
    values = []
    for row in rows_:
        if first <= int(row["second"]) < first + count and row.get(column):
            value = float(row[column])
            if math.isfinite(value):
                values.append(value)
    return values


def _ms(value: float | None) -> str:
    return "—" if value is None else f"{value:,.0f} ms"


def pct(value: float) -> str:
    if round(value, 1) == 0:
        return "0%"
    return f"{value:+.0f}%" if abs(value) >= 10 else f"{value:+.1f}%"


def _end(value: float) -> str:
    """An interval's end: never "0%" for an end that is not 0, so an interval the rule calls a change (it excludes
    0%) never reads as one that holds it."""
    if value != 0 and round(value, 1) == 0:
        return "just above 0%" if value > 0 else "just below 0%"
    return pct(value)


def change_text(change: Change) -> str:
    """The change in words where the data cannot carry a figure: a bound stays a bound (a run that held the top of
    its stairs has a knee somewhere above), an interval holding 0 is 'no change detected', none at all is said so;
    a latency's rank test beside it (rank_words)."""
    return _verdict_text(change) + rank_words(change)


def _verdict_text(change: Change) -> str:
    low, high = change.low_pct, change.high_pct
    if low is None and high is None:
        return "cannot tell"
    interval = _interval(low, high)
    if not change.detected:
        return f"no change detected ({interval})"
    if high is None:
        assert low is not None  # both None returned "cannot tell" above
        return f"at least {pct(low)} (a bound: RUN held the top of its stairs)"
    if low is None:
        return f"at most {pct(high)} (a bound: AGAINST held the top of its stairs)"
    if change.point_pct is None and low <= -100:  # RUN's knee lies anywhere below its first level
        return f"at most {pct(high)} (a bound: RUN had no healthy level)"
    if change.point_pct is None:
        return interval
    return f"{pct(change.point_pct)} ({interval})"


def rank_words(change: Change) -> str:
    """The rank test's p beside the interval's verdict, the same words wherever a change is shown: `; the rank test
    agrees (p = 0.001)`, or where it would say otherwise, that it is not acted on (the interval decides:
    difference.Change.detected); "" without a rank test."""
    agrees = change.rank_agrees
    if agrees is None:
        return ""
    p = f"p = {change.p_value:.2g}"
    if agrees:
        return f"; the rank test agrees ({p})"
    if change.detected:
        return f"; the interval excludes 0%; the rank test alone ({p}) would not call it a change: the interval decides"
    return f"; the interval includes 0%; the rank test alone ({p}) would call it a change: not claimed"


def _interval(low: float | None, high: float | None) -> str:
    """Never both None (_verdict_text says "cannot tell" first)."""
    if high is None:
        assert low is not None
        return f"95%: {_end(low)} or more, RUN held the top of its stairs"
    if low is None:
        return f"95%: {_end(high)} or less, AGAINST held the top of its stairs"
    if round(low, 1) == round(high, 1) == 0 and low <= 0 <= high:
        return "the same values"
    return f"95%: {_end(low)} to {_end(high)}"


def console_lines(run: Side, against: Side, shared: Shared, found: list[Row]) -> list[str]:
    """The terminal's table: what was compared, then each headline row with its change and where it came from."""
    aside = "; ".join(f"{mode} {why}" for mode, why in shared.aside.items())
    lines = [
        f"-- RUN {run.run_id} against AGAINST {against.run_id} (the change is RUN's, in % of AGAINST's): "
        f"compared {' '.join(shared.modes)}" + (f"; set aside: {aside}" if aside else "")
    ]
    shown = headline_rows(found, shared)
    cells = [(r.name, r.run_text, r.against_text, change_text(r.change), r.change.basis) for r in shown]
    widths = [max(len(c[i]) for c in [("figure", "RUN", "AGAINST", "change", "from"), *cells]) for i in range(4)]
    for cell in [("figure", "RUN", "AGAINST", "change", "from"), *cells]:
        lines.append("  ".join(c.ljust(w) for c, w in zip(cell, widths)) + "  " + cell[4])
    for mode in shared.modes:
        if held_rate(shared, mode) is None:
            lines.append(f"{mode}: no offered rate both runs held healthy, so no latency at equal load here")
    return lines
