"""The charts' one look: matplotlib settings, panel size, and a colour per series."""

from __future__ import annotations

from typing import TypedDict

from matplotlib.typing import RcKeyType

from loadlab.analysis import wait_sites as ws
from loadlab.core import metrics
from loadlab.summary.writing import server_columns as col

STYLE: dict[RcKeyType, object] = {
    "svg.fonttype": "none",  # text stays text: smaller, selectable, searchable
    "font.family": "sans-serif",
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.titleweight": "bold",
    "axes.grid": True,
    "grid.alpha": 0.35,
    "grid.linewidth": 0.6,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.fontsize": 8,
    "legend.frameon": False,
    "lines.linewidth": 1.6,
    "lines.markersize": 4,
}
PANEL_SIZE = (5.4, 3.3)  # inches per mode panel
COLORS = {
    "offered": "#7f7f7f",
    "ok": "#1f77b4",
    "target": "#bbbbbb",
    "p50": "#2ca02c",
    "p95": "#ff7f0e",
    "p99": "#d62728",
    "p90": "#ff7f0e",
    "p99.9": "#9467bd",
    "max": "#7f7f7f",
    "level_band": "#c6dbef",
    "brownout": "#636363",
    "knee_band": "#fcbba1",
    "limit": "#d62728",
    "errors": "#d62728",
    "knee": "#9467bd",
    "prediction": "#8c564b",
    "unhealthy": "#d62728",
    metrics.JVM_THREADS_LIVE: "#1f77b4",
    metrics.TOMCAT_THREADS_BUSY: "#ff7f0e",
    metrics.INFLIGHT_REQUESTS: "#2ca02c",
    metrics.VIRTUAL_THREADS_MOUNTED: "#9467bd",
    col.HEAP_USED_MB: "#1f77b4",
    col.THREAD_CPU_PCT: "#1f77b4",
    col.DELAY_CPU_PCT: "#2ca02c",
    col.INJECTOR_CPU_PCT: "#ff7f0e",
    col.DELAY_PROBE_MS: "#2ca02c",
    col.DOWNSTREAM_MS_MEAN: "#1f77b4",
    col.THREAD_HOST_CPU_PCT: "#1f77b4",
    col.DELAY_HOST_CPU_PCT: "#2ca02c",
    col.INJECTOR_HOST_CPU_PCT: "#ff7f0e",
    metrics.DB_POOL_ACTIVE: "#1f77b4",
    metrics.DB_POOL_PENDING: "#d62728",
    "cpu_per_request": "#1f77b4",
    "fine": "#17becf",
}
# The modes in the order the page lists them (platform first), where they share one axes.
MODE_COLORS = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2"]


class LineStyle(TypedDict, total=False):
    """Keywords of a line's look, as matplotlib's plot() takes them."""

    linestyle: str
    zorder: float


# Busy Tomcat threads equal requests in flight until the pool is full: dashed and on top, so both stay visible.
LINE_STYLE: dict[str, LineStyle] = {metrics.TOMCAT_THREADS_BUSY: {"linestyle": "--", "zorder": 3}}


# Kinds are the simulation's (ErrorKind); they get colours by position in its list, so none is spelled here.
KIND_COLORS = ["#d62728", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#1f77b4"]

# The wait profile's categories (analysis/wait_sites.py), one colour each wherever a profile is drawn. Requests not
# yet on a thread are the red of trouble: a growing queue is what a collapse looks like; the downstream's blue is the
# wait every request of this lab makes by design.
WAIT_COLORS = {
    ws.QUEUED: "#d62728",
    ws.POOL: "#ff7f0e",
    ws.MONITOR: "#8c564b",
    ws.PINNED: "#e377c2",
    ws.READY: "#bcbd22",
    ws.RUNNING: "#2ca02c",
    ws.DOWNSTREAM: "#1f77b4",
    ws.OTHER: "#c7c7c7",
}
