"""The levels section: every measured level of each mode, its fine passes' levels under it."""

from __future__ import annotations

from html import escape

from loadlab.report.formats import bracket_text, class_attr, num, pct, rps
from loadlab.summary.schema.level_records import LevelRecord, PassRecord
from loadlab.summary.verdicts.records import RunSummary


def section(summary: RunSummary) -> str:
    modes = summary.modes
    if not modes:
        return ""
    tables = []
    for mode, m in modes.items():
        head = (
            "<tr><th>level</th><th>target rps</th><th>offered/s</th><th>OK/s</th><th>errors</th>"
            "<th>p50 ms</th><th>p95 ms</th><th>p99 ms</th><th>max ms</th><th>s</th>"
            "<th>delay-service ms (probe, median)</th><th>host CPU %</th>"
            '<th class="text">healthy</th></tr>'
        )
        rows = [_level_row(lv, m.sustained_rps) for lv in m.levels or []]
        body = "".join(rows) or '<tr><td colspan="13" class="text muted">no measured level</td></tr>'
        tables.append(f"<div><h3>{escape(mode)}</h3><table>{head}{body}</table></div>")
        for fine in m.knee.refine.passes or [] if m.knee.refine else []:
            tables.append(_fine_pass_table(mode, fine, head))
    # One table under the other: side by side, a level's reasons would squeeze both into unreadable columns.
    return f'<section id="levels"><h2>Levels</h2>{"".join(tables)}</section>'


def _level_row(lv: LevelRecord, sustained: float | None) -> str:
    classes = []
    if lv.set_aside:
        classes.append("set-aside")
    elif not lv.healthy:
        classes.append("unhealthy")
    elif lv.target_rps == sustained:
        classes.append("sustained")
    evidence = lv.sampled
    verdict = '<span class="yes">yes</span>' if lv.healthy else "; ".join(escape(r) for r in lv.unhealthy_reasons or [])
    if lv.healthy and lv.tail_judged_by == "count":
        # fewer requests than a p99 needs (health.tail_judged_by): its p99 cell is its slowest answers, not a p99
        verdict += (
            ' <span class="muted">(its tail judged by the count past the limit: too few requests for a p99)</span>'
        )
    if lv.set_aside:
        # measured, but not the service's: the knee is placed on the other levels
        verdict = f'<span class="muted">SET ASIDE: {escape(lv.set_aside)}</span> (as measured: {verdict})'
    return (
        f"<tr{class_attr(classes)}><td>{num(lv.index)}</td><td>{rps(lv.target_rps)}</td>"
        f"<td>{rps(lv.offered_rps)}</td><td>{rps(lv.ok_rps)}</td>"
        f"<td>{pct(lv.error_ratio)}</td><td>{num(lv.p50_ms)}</td><td>{num(lv.p95_ms)}</td>"
        f"<td>{num(lv.p99_ms)}</td><td>{num(lv.max_ms)}</td><td>{num(lv.seconds)}</td>"
        f"<td>{num(evidence.delay_probe_ms)}</td><td>{num(evidence.host_cpu_pct)}</td>"
        f'<td class="reason">{verdict}</td></tr>'
    )


def _fine_pass_table(mode: str, fine: PassRecord, head: str) -> str:
    """A refinement pass's levels under the coarse ones: same columns, the rule and baseline of the coarse pass."""
    levels = fine.levels or []
    sustained = (fine.interval_after_rps or [None])[0] if fine.used else None
    rows = "".join(_level_row(lv, sustained) for lv in levels)
    rows = rows or '<tr><td colspan="13" class="text muted">no measured level</td></tr>'
    used = (
        (
            "used: the bracket went from "
            + bracket_text(fine.interval_before_rps)
            + " to "
            + bracket_text(fine.interval_after_rps)
            + " rps"
        )
        if fine.used
        else f"not used: {fine.why_not_used}"
    )
    return (
        f'<div class="fine-pass"><h3>{escape(mode)} — {escape(str(fine.name))} '
        f'<span class="muted">(fine levels, judged against the coarse baseline; {escape(used)})</span></h3>'
        f"<table>{head}{rows}</table></div>"
    )
