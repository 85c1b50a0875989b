"""APP on the page: per column, what the app's own evidence says (summary.json's `app_evidence`): whether its
requests ran on virtual threads, the request pool it used, its Actuator gauges when it exposes them, pinning, lock
waits and GC, and what that evidence points to when no model explains its knee."""

from __future__ import annotations

from html import escape

from loadlab.core import metrics
from loadlab.report.formats import columns_table, num, small
from loadlab.summary.records import ModeRecord, RunSummary


def _value(key: str):
    def cell(m: ModeRecord) -> str:
        return num((m.app_evidence or {}).get(key))

    return cell


def _started(m: ModeRecord) -> str:
    ev = m.app_evidence or {}
    started, requests = ev.get("virtual_threads_started"), m.requests
    if started is None:
        return "—"
    per = f"{started / requests:.2f} per request measured" if requests else ""
    return num(started) + (small(per) if per else "")


def _gc(m: ModeRecord) -> str:
    ev = m.app_evidence or {}
    if ev.get("gc_count") is None:
        return "—"
    return num(ev.get("gc_count")) + small(
        f"{num(ev.get('gc_pause_total_ms'))} ms paused, longest {num(ev.get('gc_pause_max_ms'))} ms"
    )


def _pointers(m: ModeRecord) -> str:
    seen = (m.app_evidence or {}).get("points_to") or []
    return "<br>".join(escape(x) for x in seen) if seen else "nothing stands out"


def _hikari(m: ModeRecord) -> str:
    ev = m.app_evidence or {}
    if ev.get("hikari_max") is None and ev.get("hikari_pending_max") is None:
        return "—"
    return f"{num(ev.get('hikari_max'))} / {num(ev.get('hikari_pending_max'))}"


ROWS = (
    ("virtual threads started (JFR)", _started),
    ("Tomcat platform request threads seen (most at once)", _value("request_pool_threads_max")),
    # app_evidence names its Tomcat pool gauge as the thread-service's own metric for the same setting
    ("its own tomcat.threads.config.max (Actuator)", _value(metrics.TOMCAT_THREADS_MAX)),
    ("Tomcat threads busy, most (Actuator)", _value("tomcat_busy_max")),
    ("HikariCP connections / pending, most (Actuator)", _hikari),
    ("pinned virtual threads (JFR)", _value("pinned_events")),
    ("monitor waits ≥ 20 ms (JFR)", _value("monitor_waits")),
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
