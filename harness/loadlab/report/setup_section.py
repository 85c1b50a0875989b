"""The run's setup: parameters, the request chain's limits, health thresholds, machine, Java runtimes and hosts."""

from __future__ import annotations

from html import escape

from loadlab.report.formats import none_row, text_of
from loadlab.summary.schema.detail_records import HostRecord
from loadlab.summary.verdicts.records import RunSummary

PARAM_ORDER = [
    "TARGET",
    "SCENARIO",
    "MODES",
    "JDKS",
    "DELAY_MS",
    "CPU_MS",
    "DB_POOL",
    "PLATFORM_THREADS",
    "PROFILE",
    "START_RPS",
    "PEAK_RPS",
    "STEPS",
    "STEP_SECONDS",
    "WARMUP_SECONDS",
    "INJECTORS",
    "REFINE",
    "REPEAT",
]


def section(summary: RunSummary) -> str:
    params = summary.params.to_json()  # as summary.json shows them, by their names
    keys = [k for k in PARAM_ORDER if k in params] + sorted(k for k in params if k not in PARAM_ORDER)
    param_rows = "".join(
        f'<tr><th class="text">{escape(k)}</th><td class="text">{escape(text_of(params[k]))}</td></tr>' for k in keys
    )
    thresholds = summary.thresholds.as_json() if summary.thresholds else {}  # every one, by its name
    threshold_rows = "".join(
        f'<tr><th class="text">{escape(k)}</th><td>{escape(text_of(v))}</td></tr>' for k, v in thresholds.items()
    )
    hosts = summary.hosts or {}
    host_rows = "".join(
        f'<tr><th class="text">{escape(role)}</th><td class="text">{escape(text_of(h.address))}</td>'
        f'<td class="text">{escape(text_of(h.description))}</td></tr>'
        for role, h in sorted(hosts.items())
        if isinstance(h, HostRecord)
    )
    machine = summary.machine
    runtimes = {m.jvm.jdk: m.jvm.java_runtime for m in summary.modes.values() if m.jvm.jdk is not None}
    runtime_rows = "".join(
        f'<tr><th class="text">JDK {jdk}</th><td class="text">'
        f"{escape(name) if name else '<span class=muted>not recorded</span>'}</td></tr>"
        for jdk, name in sorted(runtimes.items())
    )
    limit_rows = "".join(
        f'<tr><th class="text">{escape(k)}</th><td>{escape(text_of(v))}</td></tr>'
        for k, v in (summary.limits or {}).items()
    )
    return (
        '<section id="setup"><h2>Parameters and machine</h2><div class="grid">'
        f"<div><h3>Parameters</h3><table>{param_rows or none_row(2)}</table>"
        '<h3>Limits of the request chain</h3><p class="muted">Derived from what one request should take, '
        "above the slowest latency the health rule accepts, so that no harness limit cuts a healthy request."
        f'</p><table id="limits">{limit_rows or none_row(2)}</table></div>'
        f"<div><h3>Health thresholds</h3><table>{threshold_rows or none_row(2)}</table>"
        f"<h3>Machine</h3><p>{escape(str(machine)) if machine else '<span class=muted>not recorded</span>'}</p>"
        '<h3>Java runtimes</h3><p class="muted">What each JDK\'s java said it is when the run started.</p>'
        f'<table id="java-runtimes">{runtime_rows or none_row(2)}</table>'
        '<h3>Hosts</h3><table><tr><th class="text">role</th><th class="text">address</th>'
        f'<th class="text">description</th></tr>{host_rows or none_row(3)}</table></div>'
        "</div></section>"
    )
