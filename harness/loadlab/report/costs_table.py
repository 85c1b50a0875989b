"""The page's costs: what each request and each thread cost a mode (summary/judge/cost_fits.py), one column per mode. A
cost the data cannot carry (its interval includes zero, or too narrow a range of requests in flight) is said in
words, not printed as a figure.

`rows(mode)` renders one mode's costs as (label, cell html) pairs, so any layout of columns (a pool sweep's too)
shows the same lines; `section(summary)` is the table with every mode side by side.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from loadlab.summary.schema.fit_records import CostSlopeRecord, CostsRecord
from loadlab.summary.schema.level_records import LevelRecord, healthy_prefix
from loadlab.summary.verdicts.records import ModeRecord, RunSummary


def _fit_text(fit: CostSlopeRecord | None, unit: str, digits: int = 1) -> str:
    """`164 KB (95%: 150–178, R² 0.98, 12 points, over 20–80 in flight)`, or a dash."""
    if not fit:
        return "—"
    if fit.not_a_figure:
        # Said in words, never as a number a reader would compare (summary/judge/cost_fits.py Fit.not_a_figure).
        return f'<span class="muted">no figure: {escape(fit.not_a_figure)}</span>'
    value = f"{fit.slope:,.{digits}f} {unit}"
    facts = []
    if fit.interval:
        low, high = fit.interval
        facts.append(f"95%: {low:,.{digits}f}–{high:,.{digits}f}")
    if fit.r2 is not None:
        facts.append(f"R² {fit.r2:.2f}")
    facts.append(f"{fit.points} points")
    return escape(value) + f'<br><span class="muted">{escape(", ".join(facts))}</span>'


def _range_note(fit: CostSlopeRecord | None, what: str) -> str:
    if not fit or not fit.range or fit.not_a_figure:
        return ""
    low, high = fit.range
    return f'<br><span class="muted">{escape(f"fitted on {low:,.0f}–{high:,.0f} {what}")}</span>'


def _level_span(mode: ModeRecord, value: Callable[[LevelRecord], float | None], unit: str) -> str:
    """The measured value at the first level and at the last one the summary counts, the healthy levels before the
    knee (level_records.healthy_prefix) (`210 → 1,240 MB`)."""
    levels = [v for v in map(value, mode.levels or []) if v is not None]
    if not levels:
        return "—"
    counted = [v for v in map(value, healthy_prefix(mode.levels or [])) if v is not None] or levels
    first, last = levels[0], counted[-1]
    return escape(f"{first:,.0f} → {last:,.0f} {unit}" if first != last else f"{first:,.0f} {unit}")


def rows(mode: ModeRecord) -> list[tuple[str, str]]:
    """One mode's costs as (label, cell html)."""
    costs = mode.request_cost.fits or CostsRecord.unknown()
    switches_source = costs.context_switches_source
    memory = costs.memory_per_inflight
    return [
        (
            f"memory per request in flight ({costs.memory or 'live heap after GC + committed thread stacks'})",
            _fit_text(memory, "KB") + _range_note(memory, "in flight"),
        ),
        ("resident memory (RSS) per request in flight", _fit_text(costs.rss_per_inflight, "KB")),
        ("committed thread stacks per request in flight", _fit_text(costs.thread_stacks_per_inflight, "KB")),
        (
            "context switches per request" + (f" ({switches_source})" if switches_source else ""),
            _fit_text(costs.context_switches_per_request, "", 2),
        ),
        ("bytes allocated per request", _fit_text(costs.bytes_allocated_per_request, "B", 0)),
        ("resident memory, first → last healthy level", _level_span(mode, lambda lv: lv.rss_mb, "MB")),
        ("OS threads, first → last healthy level", _level_span(mode, lambda lv: lv.os_threads, "")),
        ("the slopes above were fitted on", escape(costs.fitted_on_text or "—")),
    ]


def section(summary: RunSummary) -> str:
    modes = summary.modes
    if not any(m.request_cost.fits for m in modes.values()):
        return ""
    per_mode = {name: rows(m) for name, m in modes.items()}
    labels = [label for label, _ in next(iter(per_mode.values()))]
    head = "".join(f"<th>{escape(name)}</th>" for name in modes)
    body = "".join(
        f'<tr><th class="text">{escape(label)}</th>'
        + "".join(f"<td>{dict(cells).get(label, '—')}</td>" for cells in per_mode.values())
        + "</tr>"
        for label in labels
    )
    fits = {name: mode.request_cost.fits for name, mode in modes.items()}
    missing = [f"{name}: {m}" for name, fit in fits.items() for m in (fit.missing or [] if fit else [])]
    note = "".join(f'<p class="muted">{escape(m)}</p>' for m in missing)
    return (
        '<section id="costs"><h2>What a request and a thread cost</h2>'
        "<p>Slopes over every healthy level a mode measured, coarse and fine (what the service spends whatever "
        "the rate is not charged to requests); "
        "from the service's flight recording and /proc.</p>"
        f"<table class='columns'><tr><th></th>{head}</tr>{body}</table>{note}</section>"
    )
