"""The limit ladder on the page (LADDER=N): per mode a table of its rungs — the limit, the setting before → after,
the next limit's predicted interval, the knee measured with its bracket, the verdict — each rung's own page linked
(its percentiles over time, its wait profile). Drawn inside "What to change" (prescription_section.py)."""

from __future__ import annotations

from html import escape

from loadlab.analysis.prediction import interval_text
from loadlab.summary.schema.record_fields import Interval
from loadlab.summary.schema.rung_record import RungRecord

HEAD = ("rung", "limit", "setting", "predicted (next limit)", "knee measured", "verdict")


def table(mode: str, rungs: list[RungRecord]) -> str:
    if not rungs:
        return ""
    head = "".join(f"<th>{escape(h)}</th>" for h in HEAD)
    body = "".join(_row(r) for r in rungs)
    return (
        f'<table class="ladder" data-mode="{escape(mode)}"><caption>{escape(mode)}: the limit ladder</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )


def _row(r: RungRecord) -> str:
    setting = f"{r.setting or ''} {_n(r.from_value)} → {_n(r.to)}" if r.setting else "—"
    rung = f'<a href="{escape(r.run)}/index.html">{r.rung}</a>' if r.run else str(r.rung or "")
    cells = [
        rung,
        escape(r.limit or "—"),
        escape(setting),
        escape(_interval(r.predicted_interval_rps)),
        escape(_interval(r.knee_interval_rps) if r.knee_interval_rps else "—"),
        f"<strong>{escape(r.verdict or 'no verdict')}</strong>: {escape(r.words or '')}",
    ]
    return "<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


def _interval(pair: Interval | None) -> str:
    if not pair or pair[0] is None:
        return "—"
    return interval_text(pair[0], pair[1])


def _n(value: float | None) -> str:
    return "?" if value is None else f"{value:,.0f}"
