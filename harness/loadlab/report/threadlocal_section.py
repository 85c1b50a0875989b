"""THREADLOCAL_KB on the page: per column, how often the per-thread object was built, what it added per request, and
the CPU per request and CPU ceiling that follow (summary.json's `threadlocal`, `cpu_ceiling`, `costs`)."""

from __future__ import annotations

from html import escape

from loadlab.report.formats import columns_table, num, rps, small
from loadlab.summary.schema.detail_records import ThreadlocalRecord
from loadlab.summary.verdicts.records import ModeRecord, RunSummary


def _builds(m: ModeRecord) -> str:
    use = m.jvm.threadlocal or ThreadlocalRecord.unknown()
    per_request = use.builds_per_request
    if per_request is None:
        return "—"
    since = use.builds_since_start
    return escape(f"{per_request:.4g}") + small(
        f"{num(use.builds)} builds for {num(use.requests)} requests measured"
        + (f"; {num(since)} since start" if since is not None else "")
    )


def _bytes_built(m: ModeRecord) -> str:
    value = m.jvm.threadlocal.bytes_built_per_request if m.jvm.threadlocal else None
    return "—" if value is None else escape(f"{value:,.0f} B")


def _allocated(m: ModeRecord) -> str:
    fit = m.request_cost.fits.bytes_allocated_per_request if m.request_cost.fits else None
    return "—" if not fit or fit.slope is None else escape(f"{fit.slope:,.0f} B")


def thread_service_cpu_ms(m: ModeRecord) -> float | None:
    """The thread-service's CPU per request: the slope of its CPU over the healthy levels (cpufit.py)."""
    for role in m.cpu_ceiling.roles or [] if m.cpu_ceiling else []:
        if role.role == "thread-service":
            return role.ms_per_request
    return None


def _cpu(m: ModeRecord) -> str:
    ms = thread_service_cpu_ms(m)
    return "—" if ms is None else escape(f"{ms:.3f} ms")


def _ceiling(m: ModeRecord) -> str:
    return rps(m.cpu_ceiling_rps)


ROWS = (
    ("builds per request", _builds),
    ("bytes built per request (builds × the object)", _bytes_built),
    ("bytes allocated per request (everything)", _allocated),
    ("thread-service CPU per request", _cpu),
    ("CPU ceiling (rps)", _ceiling),
)


def section(summary: RunSummary) -> str:
    modes = summary.modes
    if not any(m.jvm.threadlocal for m in modes.values()):
        return ""
    kb = next((m.jvm.threadlocal.kb for m in modes.values() if m.jvm.threadlocal), None)
    return (
        f'<section id="threadlocal"><h2>The ThreadLocal trap: a {num(kb)} KB object per thread</h2>'
        "<p>Every request uses an object cached in a <code>ThreadLocal</code>, built and filled on a thread's first "
        "use: a pool builds it once per thread, a virtual thread per request builds it on every request. What that "
        "costs shows in the bytes allocated and the CPU per request, and so in the CPU ceiling.</p>"
        + columns_table(modes, ROWS)
        + "</section>"
    )
