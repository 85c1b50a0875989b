"""The downstream on the page: the delay-service's configured distribution beside what it served, per mode at each
level (summary.json's `downstream` and each level's `served_ms`): the stand-in's calibration, run by run. Shown only
when the distribution is not a constant or failures were injected (a constant stand-in is the page's premise)."""

from __future__ import annotations

from html import escape

from loadlab.report.formats import num, rps
from loadlab.summary.verdicts.records import RunSummary

PERCENTILES = ("p50", "p90", "p99", "p99.9")
ANSWERS, MEAN = "answers", "mean"  # the other keys of served_ms and configured_ms beside the percentiles


def section(summary: RunSummary) -> str:
    d = summary.downstream
    if not d or (str(d.distribution or "").startswith("constant") and not d.errors_pct and not d.resets_pct):
        return ""
    configured = d.configured_ms or {}
    head = (
        "<tr><th>column, level</th><th>target rps</th><th>answers</th>"
        + "".join(f"<th>{p}</th>" for p in PERCENTILES)
        + "</tr>"
    )
    rows = [
        "<tr><td>configured</td><td></td><td></td>"
        + "".join(f"<td>{num(configured.get(p))}</td>" for p in PERCENTILES)
        + "</tr>"
    ]
    for label, m in summary.modes.items():
        for lv in m.levels or []:
            served = lv.served_ms
            if served:
                rows.append(
                    f"<tr><td>{escape(label)} {num(lv.index)}</td><td>{rps(lv.target_rps)}</td>"
                    f"<td>{num(served.get(ANSWERS))}</td>"
                    + "".join(f"<td>{num(served.get(p))}</td>" for p in PERCENTILES)
                    + "</tr>"
                )
    failures = (
        f" {num(d.errors_pct)}% of its answers failed on purpose as a 503, {num(d.resets_pct)}% as a "
        "reset connection (counted apart from the service's own errors)."
        if d.errors_pct or d.resets_pct
        else ""
    )
    return (
        '<section id="downstream"><h2>The downstream: configured and served</h2>'
        f"<p>The delay-service drew each answer's delay from {escape(str(d.distribution))} (mean "
        f"{num(configured.get(MEAN))} ms).{escape(failures)} What it served, in ms, by its own record:</p>"
        f"<table>{head}{''.join(rows)}</table></section>"
    )
