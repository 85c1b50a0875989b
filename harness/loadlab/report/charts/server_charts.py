"""The per-second server charts (threads, heap, CPU, host, delay-service, pool) from each mode's server.csv."""

from __future__ import annotations

from matplotlib.axes import Axes

from loadlab.report.charts.chart_style import COLORS, LINE_STYLE
from loadlab.report.charts.grid import panels
from loadlab.report.charts.marks import knee_line, limit_line, log_y
from loadlab.report.service_name import THREAD_SERVICE, named

# name -> (title, y label, [(server.csv column, legend label)], log scale). On one machine the three host CPU
# columns are the same figure, so the page draws the first one only, labelled "this machine (every role)".
SERVER_PANELS = {
    "server-threads": (
        "Threads and requests in flight",
        "count (log)",
        [
            ("jvm_threads_live", "live JVM threads"),
            ("tomcat_threads_busy", "busy Tomcat threads"),
            ("inflight_requests", "requests in flight"),
            ("virtual_threads_mounted", "mounted virtual threads"),
        ],
        True,
    ),
    "server-heap": ("Heap used", "MB", [("heap_used_mb", "heap used")], False),
    "server-cpu": (
        "Process CPU (100% = one core)",
        "% of one core",
        [
            ("thread_cpu_pct", "thread-service"),
            ("delay_cpu_pct", "delay-service"),
            ("injector_cpu_pct", "injector (busiest)"),
        ],
        False,
    ),
    "server-host": (
        "Host CPU (100% = all its cores)",
        "% of the host",
        [
            ("thread_host_cpu_pct", "thread-service's host"),
            ("delay_host_cpu_pct", "delay-service's host"),
            ("injector_host_cpu_pct", "injector's host (busiest)"),
        ],
        False,
    ),
    "server-delay": (
        "Delay-service latency",
        "ms (log)",
        [("delay_probe_ms", "probed on its own host"), ("downstream_ms_mean", "seen by the thread-service (mean)")],
        True,
    ),
    "server-pool": (
        "Database pool (HikariCP)",
        "connections / requests",
        [("db_pool_active", "connections in use"), ("db_pool_pending", "requests waiting for one")],
        False,
    ),
}
# Panels drawn only when the scenario has what they show (SCENARIO=db).
CONDITIONAL_PANELS = {"server-pool"}


def chart(
    name: str,
    modes: dict[str, dict],
    series: dict[str, dict[str, list]],
    limit: tuple[float, str] | None = None,
    one_machine: bool = False,
    service: str = THREAD_SERVICE,
) -> str:
    """limit: (value, label) drawn as a horizontal line; one_machine: every role's host is this one machine;
    service: what the legends call the service under test (service_name.py)."""
    title, unit, columns, log = SERVER_PANELS[name]
    columns = [(column, named(label, service)) for column, label in columns]
    if one_machine and name == "server-host":
        columns = [(columns[0][0], "this machine (every role)")]

    def draw(ax: Axes, mode: str, summary: dict) -> bool:
        data = series.get(mode) or {}
        seconds = data.get("second") or []
        drawn = False
        for column, label in columns:
            values = data.get(column) or []
            if any(v is not None for v in values):
                drawn = True
                ax.plot(
                    seconds,
                    [float("nan") if v is None else v for v in values],
                    color=COLORS[column],
                    linewidth=1.2,
                    label=label,
                    **LINE_STYLE.get(column, {}),
                )
        if limit is not None:
            limit_line(ax, *limit)
        knee_at = _knee_second(summary)
        if knee_at is not None:
            knee_line(ax, knee_at, "first unhealthy level")
        if log and drawn:
            log_y(ax)
        return drawn

    return panels(name, title, ("seconds since the measured phase started", unit), modes, draw)


def _knee_second(summary: dict) -> int | None:
    first_bad = summary.get("first_unhealthy_level")
    for lv in summary.get("levels") or []:
        if lv.get("index") == first_bad:
            return lv.get("first_second")
    return None
