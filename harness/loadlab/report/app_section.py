"""APP on the page: per column, what the app's own evidence says (summary.json's `app_evidence`): whether its
requests ran on virtual threads, the request pool it used, its Actuator gauges when it exposes them, pinning, lock
waits and GC, and what that evidence points to when no model explains its knee."""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from loadlab.report.formats import columns_table, num, small
from loadlab.summary.schema.detail_records import AppEvidenceRecord
from loadlab.summary.verdicts.records import ModeRecord, RunSummary


def _value(read: Callable[[AppEvidenceRecord], float | None]) -> Callable[[ModeRecord], str]:
    def cell(m: ModeRecord) -> str:
        return num(read(m.app_evidence or AppEvidenceRecord.unknown()))

    return cell


def _started(m: ModeRecord) -> str:
    started, requests = (m.app_evidence or AppEvidenceRecord.unknown()).virtual_threads_started, m.requests
    if started is None:
        return "—"
    per = f"{started / requests:.2f} per request measured" if requests else ""
    return num(started) + (small(per) if per else "")


def _gc(m: ModeRecord) -> str:
    ev = m.app_evidence or AppEvidenceRecord.unknown()
    if ev.gc_count is None:
        return "—"
    return num(ev.gc_count) + small(f"{num(ev.gc_pause_total_ms)} ms paused, longest {num(ev.gc_pause_max_ms)} ms")


def _pointers(m: ModeRecord) -> str:
    seen = (m.app_evidence.points_to if m.app_evidence else None) or []
    return "<br>".join(escape(x) for x in seen) if seen else "nothing stands out"


def _hikari(m: ModeRecord) -> str:
    ev = m.app_evidence or AppEvidenceRecord.unknown()
    if ev.hikari_max is None and ev.hikari_pending_max is None:
        return "—"
    return f"{num(ev.hikari_max)} / {num(ev.hikari_pending_max)}"


ROWS = (
    ("virtual threads started (JFR)", _started),
    ("Tomcat platform request threads seen (most at once)", _value(lambda ev: ev.request_pool_threads_max)),
    ("its own tomcat.threads.config.max (Actuator)", _value(lambda ev: ev.tomcat_threads_max)),
    ("Tomcat threads busy, most (Actuator)", _value(lambda ev: ev.tomcat_busy_max)),
    ("HikariCP connections / pending, most (Actuator)", _hikari),
    ("pinned virtual threads (JFR)", _value(lambda ev: ev.pinned_events)),
    ("monitor waits ≥ 20 ms (JFR)", _value(lambda ev: ev.monitor_waits)),
    ("GCs (JFR)", _gc),
    ("what the evidence points to", _pointers),
)


def section(summary: RunSummary) -> str:
    modes = summary.modes
    if not any(m.app_evidence for m in modes.values()):
        return ""
    return (
        '<section id="app-evidence"><h2>What the app itself shows</h2>'
        "<p>The app has no <code>/actuator/loadlab</code>: this is what every JVM and Linux host gives (its flight "
        "recording, its Tomcat threads by their Linux names) and, when it exposes them, its own Actuator gauges. In "
        "virtual mode its requests must have started virtual threads and no Tomcat platform request thread may have "
        "served; in platform mode its pool must be the size asked for.</p>" + columns_table(modes, ROWS) + "</section>"
    )
