"""APP_REQUESTS on the page and the console: per mode, each kind of the mix on its own (summary.json `kinds`: its
share asked and actually sent, p50/p99 and errors at each level of the mix from its own histograms) and which kind
crossed its limit first (`kind_first`). The knee above is the whole mix's."""

from __future__ import annotations

import re
from html import escape

from loadlab.summary.judge.kinds import KindLevel, KindRecord
from loadlab.summary.verdicts.records import RunSummary

CROSSED = "✗"  # a kind over its own limit at that level
ASIDE = "(set aside)"  # the mix's level was set aside: its instrument was saturated, nothing is judged on it


def cell(lv: KindLevel) -> str:
    """`264/333` (p50/p99 ms), `+2 err` with errors, ✗ when the kind crossed its own limit there, and whether the
    mix's level was set aside."""
    latency = f"{lv.p50_ms}/{lv.p99_ms}" if lv.p50_ms is not None else "—"
    marks = (f" +{lv.errors} err" if lv.errors else "") + (f" {CROSSED}" if lv.crossed else "")
    return latency + marks + (f" {ASIDE}" if lv.set_aside else "")


def table(kinds: list[KindRecord], coarse_only: bool = False) -> tuple[list[str], list[list[str]]]:
    """(header, rows): a row per kind, a column per level of the mix (by its rate; a fine pass's marked)."""
    keys = sorted(
        {(lv.mix_rps, lv.pass_name, lv.level) for k in kinds for lv in k.levels if not (coarse_only and lv.pass_name)}
    )
    header = ["kind", "line", "asked", "sent", *(f"{rate:g} rps" + (f" ({p})" if p else "") for rate, p, _ in keys)]
    rows = []
    for k in kinds:
        at = {(lv.mix_rps, lv.pass_name, lv.level): lv for lv in k.levels}
        sent = f"{k.sent_pct:g}%" if k.sent_pct is not None else "—"
        rows.append(
            [k.name, str(k.line), f"{k.weight_pct:g}%", sent, *(cell(at[key]) if key in at else "—" for key in keys)]
        )
    return header, rows


def console_lines(mode: str, kinds: list[KindRecord], first: str | None) -> list[str]:
    header, rows = table(kinds, coarse_only=True)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [f"{mode}: each kind on its own (p50/p99 ms at each rate of the mix, {CROSSED} over its own limit):"]
    lines += ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in [header, *rows]]
    if first:
        lines.append(f"{mode}: {first}")
    return lines


def code_spans(text: str) -> str:
    """The words' `POST /carts` as code, the rest escaped."""
    return re.sub(r"`([^`]*)`", r"<code>\1</code>", escape(text))


def section(summary: RunSummary) -> str:
    modes = {label: m for label, m in summary.modes.items() if m.kinds}
    if not modes:
        return ""
    parts = [
        '<section id="kinds"><h2>Each kind of the mix</h2>'
        "<p>The stairs' rate and the knee above are the whole mix's. Here each kind of request is read from its own "
        "histograms (never derived from the mix's): its share asked and actually sent, its p50/p99 in ms and its "
        f"errors at each level of the mix, {CROSSED} where it crossed its own limit (the health rule on its own "
        "baseline p50). Its percentile files are in <code>&lt;mode&gt;/kinds/&lt;name&gt;/hgrm/</code>.</p>"
    ]
    for label, m in modes.items():
        header, rows = table(m.kinds or [])
        head = "".join(f"<th>{escape(h)}</th>" for h in header)
        labels = {k.name: k.label for k in m.kinds or []}
        body = "".join(
            f'<tr><td class="text" title="{escape(labels[r[0]])}"><code>{escape(r[0])}</code><br>'
            f'<span class="muted">{escape(labels[r[0]])}</span></td>'
            + "".join(f"<td>{escape(c)}</td>" for c in r[1:])
            + "</tr>"
            for r in rows
        )
        first = f"<p><strong>{code_spans(m.kind_first)}</strong></p>" if m.kind_first else ""
        parts.append(f"<h3>{escape(label)}</h3>{first}<table><tr>{head}</tr>{body}</table>")
    return "".join(parts) + "</section>"
