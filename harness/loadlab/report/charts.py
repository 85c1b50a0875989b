"""The page's charts as inline SVG strings, drawn by matplotlib with one shared style.

Every chart puts the modes side by side on shared axes, so equal heights mean equal values. Figures are built
with `matplotlib.figure.Figure` (no pyplot state), and ids and metadata are pinned so the same run always gives the
same bytes.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import matplotlib
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogLocator, NullLocator

STYLE = {
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
    "limit": "#d62728",
    "errors": "#d62728",
    "knee": "#9467bd",
    "prediction": "#8c564b",
    "unhealthy": "#d62728",
    "jvm_threads_live": "#1f77b4",
    "tomcat_threads_busy": "#ff7f0e",
    "inflight_requests": "#2ca02c",
    "virtual_threads_mounted": "#9467bd",
    "heap_used_mb": "#1f77b4",
    "thread_cpu_pct": "#1f77b4",
    "delay_cpu_pct": "#2ca02c",
    "injector_cpu_pct": "#ff7f0e",
    "delay_probe_ms": "#2ca02c",
    "downstream_ms_mean": "#1f77b4",
    "thread_host_cpu_pct": "#1f77b4",
    "delay_host_cpu_pct": "#2ca02c",
    "injector_host_cpu_pct": "#ff7f0e",
    "db_pool_active": "#1f77b4",
    "db_pool_pending": "#d62728",
    "cpu_per_request": "#1f77b4",
    "fine": "#17becf",
}
# Busy Tomcat threads equal requests in flight until the pool is full: dashed and on top, so both stay visible.
LINE_STYLE = {"tomcat_threads_busy": {"linestyle": "--", "zorder": 3}}
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
# More modes than this per row (several JDKs) wrap onto a second row, so each panel stays readable.
MAX_PANELS_PER_ROW = 2

_PROLOG = re.compile(r"^.*?(?=<svg)", re.S)
_METADATA = re.compile(r"\s*<metadata>.*?</metadata>", re.S)
_SIZE = re.compile(r'(<svg[^>]*?) width="[^"]*" height="[^"]*"')
_ID = re.compile(r'(\sid=)"([^"]+)"')
_REF = re.compile(r'(url\(|href=")#([^")]+)')


def throughput(modes: dict[str, dict]) -> str:
    def draw(ax: Axes, mode: str, summary: dict) -> bool:
        levels = summary.get("levels") or []
        x = [lv["target_rps"] for lv in levels]
        ax.plot(x, x, color=COLORS["target"], linestyle="--", linewidth=1, label="target")
        ax.plot(x, [lv["offered_rps"] for lv in levels], color=COLORS["offered"], marker="o", label="offered (sent/s)")
        ax.plot(x, [lv["ok_rps"] for lv in levels], color=COLORS["ok"], marker="o", label="OK/s")
        _mark_unhealthy(ax, levels, x, [lv["ok_rps"] for lv in levels])
        _mark_fine_levels(ax, summary)
        _mark_knee_and_prediction(ax, summary)
        ax.set_xlabel("target rate (requests/s)")
        ax.set_ylabel("requests/s")
        return bool(levels)

    return _panels("throughput", "Offered vs OK throughput per level", modes, draw)


def latency(modes: dict[str, dict]) -> str:
    def draw(ax: Axes, mode: str, summary: dict) -> bool:
        levels = [lv for lv in summary.get("levels") or [] if lv.get("p50_ms") is not None]
        x = [lv["offered_rps"] for lv in levels]
        for key in ("p50", "p95", "p99"):
            ax.plot(x, [lv[f"{key}_ms"] for lv in levels], color=COLORS[key], marker="o", label=key)
        _mark_unhealthy(ax, levels, x, [lv["p99_ms"] for lv in levels])
        if summary.get("p99_limit_ms"):
            ax.axhline(
                summary["p99_limit_ms"],
                color=COLORS["limit"],
                linestyle=":",
                linewidth=1,
                label=f"p99 limit {summary['p99_limit_ms']} ms",
            )
        _mark_knee_and_prediction(ax, summary)
        if levels:
            _log_y(ax)
        ax.set_xlabel("offered rate (requests/s)")
        ax.set_ylabel("latency of OK responses (ms, log)")
        return bool(levels)

    return _panels("latency", "Latency percentiles per level", modes, draw)


def errors(modes: dict[str, dict], max_error_ratio: float | None) -> str:
    def draw(ax: Axes, mode: str, summary: dict) -> bool:
        levels = summary.get("levels") or []
        x = [lv["target_rps"] for lv in levels]
        steps = [b - a for a, b in zip(x, x[1:]) if b > a]
        width = 0.6 * (min(steps) if steps else max(x[0] if x else 1, 1) * 0.5)
        shares = [100 * (lv["error_ratio"] or 0) for lv in levels]
        kinds = error_kinds(summary)
        if kinds:
            # One stacked bar per level, a segment per kind: why a level failed, not only how much.
            bottom = [0.0] * len(levels)
            for i, kind in enumerate(kinds):
                part = [
                    share
                    * (lv.get("errors_by_kind") or {}).get(kind, 0)
                    / max(sum((lv.get("errors_by_kind") or {}).values()), 1)
                    for lv, share in zip(levels, shares)
                ]
                ax.bar(x, part, width=width, bottom=bottom, color=KIND_COLORS[i % len(KIND_COLORS)], label=kind)
                bottom = [b + p for b, p in zip(bottom, part)]
        else:
            ax.bar(x, shares, width=width, color=COLORS["errors"], label="errors (% of completed)")
        if max_error_ratio is not None:
            ax.axhline(
                100 * max_error_ratio,
                color=COLORS["limit"],
                linestyle=":",
                linewidth=1,
                label=f"limit {100 * max_error_ratio:g}%",
            )
        if levels and not any(shares):
            ax.text(
                0.5, 0.5, "no errors at any level", transform=ax.transAxes, ha="center", va="center", color="#555555"
            )
        ax.set_xlabel("target rate (requests/s)")
        ax.set_ylabel("errors (%)")
        return bool(levels)

    return _panels("errors", "Errors per level", modes, draw)


# Kinds are the simulation's (ErrorKind); they get colours by position in its list, so none is spelled here.
KIND_COLORS = ["#d62728", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#1f77b4"]


def error_kinds(summary: dict) -> list[str]:
    """The kinds seen in a mode's levels, in the simulation's order (then any it did not list)."""
    seen = {k for lv in summary.get("levels") or [] for k, n in (lv.get("errors_by_kind") or {}).items() if n}
    order = [k for k in summary.get("error_kinds") or [] if k in seen]
    return order + sorted(seen - set(order))


def cpu_per_request(modes: dict[str, dict], cpu_ms: float | None) -> str:
    """The thread-service's CPU per OK request at each level, against the computation each request asked for."""

    def draw(ax: Axes, mode: str, summary: dict) -> bool:
        levels = [lv for lv in summary.get("levels") or [] if lv.get("thread_cpu_ms_per_request") is not None]
        x = [lv["target_rps"] for lv in levels]
        y = [lv["thread_cpu_ms_per_request"] for lv in levels]
        ax.plot(x, y, color=COLORS["cpu_per_request"], marker="o", label="thread-service CPU per OK request")
        _mark_unhealthy(ax, levels, x, y)
        if cpu_ms:
            ax.axhline(
                cpu_ms,
                color=COLORS["prediction"],
                linestyle=":",
                linewidth=1.2,
                label=f"CPU_MS {cpu_ms:g} ms (the work asked for)",
            )
        _mark_knee_and_prediction(ax, summary)
        ax.set_xlabel("target rate (requests/s)")
        ax.set_ylabel("ms of CPU per request")
        return bool(levels)

    return _panels("cpu-per-request", "CPU per request", modes, draw)


def server(
    name: str,
    modes: dict[str, dict],
    series: dict[str, dict[str, list]],
    limit: tuple[float, str] | None = None,
    one_machine: bool = False,
) -> str:
    """limit: (value, label) drawn as a horizontal line; one_machine: every role's host is this one machine."""
    title, unit, columns, log = SERVER_PANELS[name]
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
            ax.axhline(limit[0], color=COLORS["limit"], linestyle=":", linewidth=1, label=limit[1])
        knee_at = _knee_second(summary)
        if knee_at is not None:
            ax.axvline(knee_at, color=COLORS["knee"], linestyle="--", linewidth=1, label="first unhealthy level")
        if log and drawn:
            _log_y(ax)
        ax.set_xlabel("seconds since the measured phase started")
        ax.set_ylabel(unit)
        return drawn

    return _panels(name, title, modes, draw)


def _panels(name: str, title: str, modes: dict[str, dict], draw: Callable[[Axes, str, dict], bool]) -> str:
    with matplotlib.rc_context({**STYLE, "svg.hashsalt": f"loadlab-{name}"}):
        columns = min(max(len(modes), 1), MAX_PANELS_PER_ROW)
        rows = -(-max(len(modes), 1) // columns)
        fig = Figure(figsize=(PANEL_SIZE[0] * columns, PANEL_SIZE[1] * rows))
        # Fixed margins: constrained layout doubles the drawing time and the panels are all alike.
        width, height = fig.get_figwidth(), fig.get_figheight()
        fig.subplots_adjust(
            left=0.75 / width,
            right=1 - 0.1 / width,
            bottom=0.53 / height,
            top=1 - 0.3 / height,
            wspace=0.22,
            hspace=0.55 if rows > 1 else 0.2,
        )
        grid = fig.subplots(rows, columns, sharex=True, sharey=True, squeeze=False)
        axes = [ax for row in grid for ax in row]
        for ax in axes[len(modes) :]:
            ax.set_visible(False)  # an odd mode count leaves the last cell of the grid empty
        for ax, (mode, summary) in zip(axes, modes.items()):
            ax.set_title(f"{title} — {mode}")
            if draw(ax, mode, summary):
                # Every chart here rises to the right, so the upper left corner is the free one.
                ax.legend(loc="upper left")
            else:
                ax.text(0.5, 0.5, "no data", transform=ax.transAxes, ha="center", va="center", color="#888888")
        for ax in axes:
            ax.tick_params(labelleft=True, labelbottom=True)  # shared axes, but each panel keeps its own labels
        if axes[0].get_yscale() == "linear":
            # Once every panel is drawn: the shared range then holds every mode's data, from zero.
            axes[0].set_ylim(bottom=0)
        return _svg(fig, name)


def _log_y(ax: Axes) -> None:
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 3.0, 5.0)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_locator(NullLocator())


def _mark_knee_and_prediction(ax: Axes, summary: dict) -> None:
    if summary.get("collapsed") and summary.get("sustained_rps"):
        ax.axvline(
            summary["sustained_rps"],
            color=COLORS["knee"],
            linestyle="--",
            linewidth=1,
            label=f"knee: sustained {summary['sustained_rps']:g} rps",
        )
    if summary.get("predicted_rps"):
        by = summary.get("predicted_by") or "model"
        ax.axvline(
            summary["predicted_rps"],
            color=COLORS["prediction"],
            linestyle=":",
            linewidth=1.2,
            label=f"{by} prediction {summary['predicted_rps']:g} rps",
        )


def _mark_fine_levels(ax: Axes, summary: dict) -> None:
    """The refinement passes' levels (REFINE=1) as diamonds, and the knee's bracket as a band."""
    fine = [lv for p in (summary.get("refine") or {}).get("passes") or [] for lv in p.get("levels") or []]
    if fine:
        x, y = [lv["target_rps"] for lv in fine], [lv["ok_rps"] for lv in fine]
        ax.scatter(x, y, marker="D", s=16, color=COLORS["fine"], zorder=3, label="OK/s, fine levels")
        bad = [(a, b) for lv, a, b in zip(fine, x, y) if not lv.get("healthy")]
        if bad:
            ax.scatter([a for a, _ in bad], [b for _, b in bad], marker="x", s=40, color=COLORS["unhealthy"], zorder=4)
    interval = summary.get("knee_interval_rps")
    if summary.get("collapsed") and interval and interval[0]:
        ax.axvspan(
            interval[0],
            interval[1],
            color=COLORS["knee"],
            alpha=0.18,
            linewidth=0,
            label=f"knee between {interval[0]:g} and {interval[1]:g} rps",
        )


def _mark_unhealthy(ax: Axes, levels: list[dict], x: list, y: list) -> None:
    bad = [(a, b) for lv, a, b in zip(levels, x, y) if not lv.get("healthy") and b is not None]
    if bad:
        ax.scatter(
            [a for a, _ in bad],
            [b for _, b in bad],
            marker="x",
            s=40,
            color=COLORS["unhealthy"],
            zorder=3,
            label="unhealthy level",
        )


def _knee_second(summary: dict) -> int | None:
    first_bad = summary.get("first_unhealthy_level")
    for lv in summary.get("levels") or []:
        if lv.get("index") == first_bad:
            return lv.get("first_second")
    return None


def _svg(fig: Figure, name: str) -> str:
    out = io.StringIO()
    fig.savefig(out, format="svg", metadata={"Date": None})
    svg = _METADATA.sub("", _PROLOG.sub("", out.getvalue(), count=1), count=1)
    # Scales with the page, but no larger than about its drawn size: a lone panel would otherwise fill the page
    # width with twice-sized text.
    svg = _SIZE.sub(lambda m: f'{m.group(1)} style="max-width: {fig.get_figwidth() * 110:.0f}px"', svg, count=1).strip()
    # Several SVGs share one HTML document: matplotlib's ids ("axes_1", ...) would repeat, so prefix them.
    svg = _ID.sub(lambda m: f'{m.group(1)}"{name}-{m.group(2)}"', svg)
    return _REF.sub(lambda m: f"{m.group(1)}#{name}-{m.group(2)}", svg)
