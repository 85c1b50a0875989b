"""The whole spectrum at equal load: at each offered rate every mode ran, each mode's latency by percentile on one
chart (from its `.hgrm` file) and a table of exact percentiles with the requests behind them (summary.json)."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from pathlib import Path

from loadlab.analysis import hlog
from loadlab.report.charts.percentile_charts import Curve, spectrum
from loadlab.report.formats import num as number
from loadlab.summary.schema.level_records import LevelRecord
from loadlab.summary.verdicts.records import ModeRecord, RunSummary
from loadlab.summary.writing import hgrm_files

CAPTION = (
    "Every successful request of the level, all injectors added, by percentile: x is 1 / (1 − p) on a log scale, so "
    "each step right is ten times rarer. Identical curves mean the thread model did not matter at this rate. A "
    "curve turns thin and grey where the level holds fewer than 1 / (1 − p) requests: no data there. The same "
    "curves load in HdrHistogram's plotter from <mode>/hgrm/."
)


@dataclass(frozen=True)
class Place:
    """One mode's level at a rate: its label on the chart, the folder of its `.hgrm` files, summary.json's level."""

    label: str
    folder: Path
    pass_name: str
    level: LevelRecord


def places(result: ModeRecord, label: str, folder: Path) -> dict[float, Place]:
    """A mode's measured levels by offered rate (coarse first; a fine pass's where the coarse pass lacks the rate)."""
    passes = [(hgrm_files.COARSE, result.levels or [])]
    passes += [(p.name or "", p.levels or []) for p in (result.knee.refine.passes or [] if result.knee.refine else [])]
    found: dict[float, Place] = {}
    for pass_name, levels in passes:
        for level in levels:
            if level.ok:
                found.setdefault(float(level.target_rps or 0), Place(label, folder, pass_name, level))
    return found


def common(by_column: list[dict[float, Place]]) -> dict[float, list[Place]]:
    """Each rate every column ran, rising, with the columns' places in order (none with fewer than two columns)."""
    if len(by_column) < 2:
        return {}
    rates = sorted(set.intersection(*(set(column) for column in by_column)))
    return {rate: [column[rate] for column in by_column] for rate in rates}


def common_rates(run_dir: Path, summary: RunSummary, folders: dict[str, str]) -> dict[float, list[Place]]:
    """Each offered rate every shown mode ran (coarse levels, or a fine pass's), in rising order."""
    modes = summary.modes
    return common([places(result, mode, run_dir / folders.get(mode, mode)) for mode, result in modes.items()])


def key_rates(rates: dict[float, list[Place]]) -> list[float]:
    """The two rates that tell the story: the highest every mode held, and the first at which one did not."""
    held = [r for r, places in rates.items() if all(p.level.healthy for p in places)]
    broke = [r for r, places in rates.items() if not all(p.level.healthy for p in places)]
    return [r for r in (max(held, default=None), min(broke, default=None)) if r is not None]


def section(run_dir: Path, summary: RunSummary, folders: dict[str, str]) -> str:
    rates = common_rates(run_dir, summary, folders)
    knees = [
        around_knee(mode, result, run_dir / folders.get(mode, mode), rates) for mode, result in summary.modes.items()
    ]
    if not rates and not any(knees):
        return ""
    return "".join(
        [
            '<section id="spectra"><h2>The whole spectrum at equal load</h2>',
            blocks(rates, "both modes"),
            *knees,
            "</section>",
        ]
    )


def around_knee(mode: str, result: ModeRecord, folder: Path, shared: dict[float, list[Place]]) -> str:
    """A mode's own spectrum on both sides of its knee, when no other mode ran its first unhealthy rate: virtual
    threads' tail near a CPU knee shows here (no time slicing between them), where no equal-load chart reaches."""
    known = result.knee.interval_rps or []
    low, high = known if len(known) == 2 else (None, None)
    if not result.collapsed or low is None or high is None or float(high) in shared:
        return ""
    bracket = [low, high]
    found = places(result, "", folder)
    sides = [p for rate in bracket if (p := found.get(float(rate))) is not None]
    if len(sides) != 2:
        return ""
    labelled = [Place(f"{mode} at {rate:g} rps", p.folder, p.pass_name, p.level) for rate, p in zip(bracket, sides)]
    heading = f"{mode} on both sides of its knee ({bracket[0]:g} and {bracket[1]:g} rps)"
    return rate_block(float(bracket[1]), labelled, f"knee-{mode}", heading, f"— {mode} around its knee")


def blocks(rates: dict[float, list[Place]], who: str, prefix: str = "spectrum") -> str:
    """The key rates' charts and tables, then every other rate's in a closed <details>; who: "both modes" ran them."""
    shown = key_rates(rates)
    parts = [rate_block(rate, rates[rate], prefix) for rate in shown]
    others = [r for r in rates if r not in shown]
    if others:
        parts.append(f"<details><summary>Every other rate {escape(who)} ran ({len(others)})</summary>")
        parts += [rate_block(rate, rates[rate], prefix) for rate in others]
        parts.append("</details>")
    return "".join(parts)


def rate_block(
    rate: float, places: list[Place], prefix: str = "spectrum", heading: str | None = None, short: str | None = None
) -> str:
    """The chart and table of some levels: each mode's (or run's) at one rate, or one mode's around its knee."""
    curves = []
    for place in places:
        level = place.level
        if level.index is None or level.target_rps is None:
            continue  # no file to read: a level's .hgrm is named by its index and rate
        distribution = hgrm_files.read(place.folder, place.pass_name, level.index, level.target_rps)
        if distribution is not None:
            curves.append(Curve(place.label, distribution, bool(level.healthy)))
    name = f"{prefix}-{rate:g}".replace(".", "_")
    heading = heading or f"{rate:g} rps offered"
    short = short or f"at {rate:g} rps offered"
    chart = (
        f'<figure class="chart" data-chart="{name}">{spectrum(name, f"Latency by percentile {short}", curves)}'
        f"<figcaption>{escape(CAPTION)}</figcaption></figure>"
        if curves
        else ""
    )
    return f'<h3>{escape(heading)}</h3><div class="spectrum-block">{chart}<div>{table(places)}</div></div>'


def table(places: list[Place]) -> str:
    """p50 … p99.99 and max per mode, exact; a percentile finer than the level's requests allow is greyed."""
    head = "".join(f"<th>p{p:g}</th>" for p in hlog.SPECTRUM)
    rows = []
    for place in places:
        level, count = place.level, place.level.ok or 0
        cells = []
        for p in hlog.SPECTRUM:
            value = level.percentile_ms(p)
            if value is None:
                cells.append('<td class="muted">–</td>')
            elif hlog.resolved(p, count):
                cells.append(f"<td>{number(value)} ms</td>")
            else:
                need = round(1 / (1 - p / 100))
                cells.append(
                    f'<td class="muted" title="needs {need:,} requests, the level has {count:,}">'
                    f"({number(value)} ms)</td>"
                )
        where = "" if not place.pass_name else f" <small>{escape(place.pass_name)}</small>"
        health = "" if level.healthy else ' <span class="no">unhealthy</span>'
        rows.append(
            f"<tr><th>{escape(place.label)}{where}{health}</th>{''.join(cells)}"
            f"<td>{number(level.max_ms)} ms</td><td>{count:,}</td></tr>"
        )
    return (
        f'<table class="spectrum"><tr><th></th>{head}<th>max</th><th>OK requests</th></tr>{"".join(rows)}</table>'
        '<p class="muted">Greyed, in brackets: fewer requests than 1 / (1 − p), so the figure is only the largest '
        "few values, not that percentile.</p>"
    )
