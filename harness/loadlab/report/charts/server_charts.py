"""The per-second server charts (threads, heap, CPU, host, delay-service, pool) from each mode's server.csv."""

from __future__ import annotations

from matplotlib.axes import Axes

from loadlab.core import metrics
from loadlab.core.app import THREAD_SERVICE
from loadlab.report.charts.chart_style import COLORS, LINE_STYLE
from loadlab.report.charts.grid import panels
from loadlab.report.charts.marks import brownout, brownout_window, knee_line, limit_line, log_y
from loadlab.report.series import gaps
from loadlab.report.service_name import named
from loadlab.summary.verdicts.records import ModeRecord
from loadlab.summary.writing import server_columns as col

# name -> (title, y label, [(server.csv column, legend label)], log scale). On one machine the three host CPU
# columns are the same figure, so the page draws the first one only, labelled "this machine (every role)".
SERVER_PANELS = {
    "server-threads": (
        "Threads and requests in flight",
        "count (log)",
        [
            (metrics.JVM_THREADS_LIVE, "live JVM threads"),
            (metrics.TOMCAT_THREADS_BUSY, "busy Tomcat threads"),
            (metrics.INFLIGHT_REQUESTS, "requests in flight"),
            (metrics.VIRTUAL_THREADS_MOUNTED, "mounted virtual threads"),
        ],
        True,
    ),
    "server-heap": ("Heap used", "MB", [(col.HEAP_USED_MB, "heap used")], False),
    "server-cpu": (
        "Process CPU (100% = one core)",
        "% of one core",
        [
            (col.THREAD_CPU_PCT, "thread-service"),
            (col.DELAY_CPU_PCT, "delay-service"),
            (col.INJECTOR_CPU_PCT, "injector (busiest)"),
        ],
        False,
    ),
    "server-host": (
        "Host CPU (100% = all its cores)",
        "% of the host",
        [
            (col.THREAD_HOST_CPU_PCT, "thread-service's host"),
            (col.DELAY_HOST_CPU_PCT, "delay-service's host"),
            (col.INJECTOR_HOST_CPU_PCT, "injector's host (busiest)"),
        ],
        False,
    ),
    "server-delay": (
        "Delay-service latency",
        "ms (log)",
        [(col.DELAY_PROBE_MS, "probed on its own host"), (col.DOWNSTREAM_MS_MEAN, "seen by the thread-service (mean)")],
        True,
    ),
    "server-pool": (
        "Database pool (HikariCP)",
        "connections / requests",
        [(metrics.DB_POOL_ACTIVE, "connections in use"), (metrics.DB_POOL_PENDING, "requests waiting for one")],
        False,
    ),
}
# Panels drawn only when the scenario has what they show (SCENARIO=db).
CONDITIONAL_PANELS = {"server-pool"}


def chart(
    name: str,
    modes: dict[str, ModeRecord],
    series: dict[str, dict[str, list[float | None]]],
    limit: tuple[float, str] | None = None,
    one_machine: bool = False,
    service: str = THREAD_SERVICE,
) -> str:
    """limit: (value, label) drawn as a horizontal line; one_machine: every role's host is this one machine;
    service: what the legends call the service under test (core/app.service_label)."""
    title, unit, columns, log = SERVER_PANELS[name]
    columns = [(column, named(label, service)) for column, label in columns]
    if one_machine and name == "server-host":
        columns = [(columns[0][0], "this machine (every role)")]

    def draw(ax: Axes, mode: str, result: ModeRecord) -> bool:
        data = series.get(mode) or {}
        seconds = data.get(col.SECOND) or []
        drawn = False
        for column, label in columns:
            values = data.get(column) or []
            if any(v is not None for v in values):
                drawn = True
                ax.plot(
                    gaps(seconds),
                    gaps(values),
                    color=COLORS[column],
                    linewidth=1.2,
                    label=label,
                    **LINE_STYLE.get(column, {}),
                )
        if limit is not None:
            limit_line(ax, *limit)
        brownout(ax, brownout_window(result), label="brownout")
        knee_at = _knee_second(result)
        if knee_at is not None:
            knee_line(ax, knee_at, "first unhealthy level")
        if log and drawn:
            log_y(ax)
        return drawn

    return panels(name, title, ("seconds since the measured phase started", unit), modes, draw)


def _knee_second(mode: ModeRecord) -> int | None:
    first_bad = mode.first_unhealthy_level
    for lv in mode.levels or []:
        if lv.index == first_bad:
            return lv.first_second
    return None
