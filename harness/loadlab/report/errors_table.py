"""Beside the error chart: failed requests per mode, level and kind, with what each kind means."""

from __future__ import annotations

from html import escape

from loadlab.report.error_kinds import error_kinds
from loadlab.report.formats import num, rps
from loadlab.summary.verdicts.records import RunSummary


def section(summary: RunSummary) -> str:
    """Beside the error chart: per mode and level, how many requests failed and of which kind, and what each means."""
    tables: list[str] = []
    shown: list[str] = []
    meanings: dict[str, dict[str, list[str]]] = {}  # kind -> {meaning: the modes that mean it}
    for mode, m in summary.modes.items():
        kinds = error_kinds(m.levels or [], m.error_kinds or [])
        if not kinds:
            continue
        shown += [k for k in kinds if k not in shown]
        for kind, meaning in (m.error_kind_meanings or {}).items():
            meanings.setdefault(kind, {}).setdefault(meaning, []).append(mode)
        # Of those, the failures the delay-service injected on purpose (DOWNSTREAM_ERRORS/RESETS), apart.
        injected = any(lv.downstream_injected for lv in m.levels or [])
        head = (
            "<tr><th>level</th><th>target rps</th>"
            + "".join(f"<th>{escape(k)}</th>" for k in kinds)
            + ("<th>of which the downstream's injected failures</th>" if injected else "")
            + "</tr>"
        )
        rows = "".join(
            f"<tr><td>{num(lv.index)}</td><td>{rps(lv.target_rps)}</td>"
            + "".join(f"<td>{num(lv.errors_of(k))}</td>" for k in kinds)
            + (f"<td>{num(lv.downstream_injected or 0)}</td>" if injected else "")
            + "</tr>"
            for lv in m.levels or []
        )
        tables.append(f"<div><h3>{escape(mode)}: failed requests by kind</h3><table>{head}{rows}</table></div>")
    if not tables:
        return ""
    legend = "; ".join(_meaning(k, meanings[k]) for k in shown if k in meanings)
    return (
        '<div class="grid" id="errors-by-kind">'
        + "".join(tables)
        + "</div>"
        + (f'<p class="muted" id="error-kind-meanings">{legend}.</p>' if legend else "")
    )


def _meaning(kind: str, by_meaning: dict[str, list[str]]) -> str:
    """`status_503: …`; where a guard makes a kind mean something else in one mode (a virtual-limited 503 is its limit
    shedding, core/guards.py), each meaning with the modes it holds for."""
    if len(by_meaning) == 1:
        return f"{escape(kind)}: {escape(next(iter(by_meaning)))}"
    return "; ".join(f"{escape(kind)} ({escape(', '.join(modes))}): {escape(m)}" for m, modes in by_meaning.items())
