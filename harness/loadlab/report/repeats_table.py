"""REPEAT > 1: the table of every repetition's sustained rate per mode, its spread and the ratio's."""

from __future__ import annotations

from html import escape

from loadlab.analysis import ratio_interval
from loadlab.report.formats import rps, small, times
from loadlab.summary.schema.detail_records import RatioSpreadRecord, RatioValueRecord
from loadlab.summary.verdicts.records import RunSummary


def section(summary: RunSummary) -> str:
    """REPEAT > 1: each repetition's sustained rate per mode, the median and range, and whether the spread is noise."""
    agg = summary.repeats
    if not agg:
        return ""
    reps = summary.repetitions or []
    head = (
        '<tr><th class="text">mode</th>'
        + "".join(f'<th><a href="{escape(r.folder or "")}/index.html">{escape(r.folder or "")}</a></th>' for r in reps)
        + '<th>median</th><th>min – max</th><th>spread</th><th class="text">repeatable?</th></tr>'
    )
    rows = []
    for mode, s in (agg.modes or {}).items():
        by_k = {r.repetition: r for r in s.repetitions or []}
        cells = []
        for r in reps:
            one = by_k.get(r.repetition)
            if one is None:
                cells.append("<td>—</td>")
                continue
            cpu = one.host_cpu_pct_at_sustained
            note = f"host CPU {cpu:.0f}%" if cpu is not None else ""
            if not one.valid:
                note = (note + "; " if note else "") + "invalid, not counted"
            cells.append(f"<td>{rps(one.sustained_rps)}{small(note)}</td>")
        spread = s.spread_ratio
        verdict = (
            '<span class="no">no: noise</span>'
            if s.noise
            else '<span class="yes">yes</span>'
            if s.noise is False
            else "—"
        )
        rows.append(
            f'<tr><th class="text">{escape(mode)}</th>{"".join(cells)}<td>{rps(s.median)}</td>'
            f"<td>{rps(s.min)} – {rps(s.max)}</td>"
            f"<td>{'—' if spread is None else f'{spread:.0%}'}</td>"
            f'<td class="reason">{verdict}{small(s.evidence)}</td></tr>'
        )
    ratio = agg.ratio or RatioSpreadRecord.unknown()
    values = {v.repetition: v for v in ratio.values or []}
    ratio_cells = "".join(f"<td>{_ratio_cell(values.get(r.repetition))}</td>" for r in reps)
    bounds = ratio.bounds or {}
    among = f"repetitions {', '.join(bounds)}: a bound, not a measure" if bounds else None
    rows.append(
        f'<tr><th class="text">virtual / platform</th>{ratio_cells}<td>{times(ratio.median)}</td>'
        f"<td>{times(ratio.min)} – {times(ratio.max)}{small(among)}</td><td></td><td></td></tr>"
    )
    return (
        f'<section id="repeats"><h2>Repetitions ({agg.n})</h2>'
        f"<p>The whole comparison ran {agg.n} times. Each column above is the median repetition of its "
        f"mode; a spread (max − min) above {agg.noise_threshold if agg.noise_threshold is not None else 0.1:.0%} "
        "of the median is this "
        f"machine's noise, not the thread model.</p><table>{head}{''.join(rows)}</table></section>"
    )


def _ratio_cell(value: RatioValueRecord | None) -> str:
    """One repetition's ratio with the interval its own knees' brackets allow ("2.12× (2.03–2.42)")."""
    if not value:
        return "—"
    span = value.virtual_over_platform_interval
    return escape(ratio_interval.text(value.virtual_over_platform, span)) + small(ratio_interval.rough(span))
