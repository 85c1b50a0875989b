"""The per-level charts: throughput, latency, errors and CPU per request, each point one level."""

from __future__ import annotations

from matplotlib.axes import Axes

from loadlab.core.app import THREAD_SERVICE
from loadlab.report.charts.chart_style import COLORS, KIND_COLORS
from loadlab.report.charts.grid import panels
from loadlab.report.charts.marks import fine_levels, knee_and_prediction, limit_line, log_y, unhealthy
from loadlab.report.error_kinds import error_kinds
from loadlab.report.series import gaps
from loadlab.report.service_name import named
from loadlab.summary.verdicts.records import ModeRecord

TARGET_RATE = "target rate (requests/s)"


def throughput(modes: dict[str, ModeRecord]) -> str:
    def draw(ax: Axes, mode: str, result: ModeRecord) -> bool:
        levels = result.levels or []
        x = gaps(lv.target_rps for lv in levels)
        ax.plot(x, x, color=COLORS["target"], linestyle="--", linewidth=1, label="target")
        ax.plot(x, gaps(lv.offered_rps for lv in levels), color=COLORS["offered"], marker="o", label="offered (sent/s)")
        ax.plot(x, gaps(lv.ok_rps for lv in levels), color=COLORS["ok"], marker="o", label="OK/s")
        unhealthy(ax, levels, x, [lv.ok_rps for lv in levels])
        fine_levels(ax, result)
        knee_and_prediction(ax, result)
        return bool(levels)

    return panels("throughput", "Offered vs OK throughput per level", (TARGET_RATE, "requests/s"), modes, draw)


def latency(modes: dict[str, ModeRecord]) -> str:
    def draw(ax: Axes, mode: str, result: ModeRecord) -> bool:
        levels = [lv for lv in result.levels or [] if lv.p50_ms is not None]
        x = gaps(lv.offered_rps for lv in levels)
        for key, values in (
            ("p50", [lv.p50_ms for lv in levels]),
            ("p95", [lv.p95_ms for lv in levels]),
            ("p99", [lv.p99_ms for lv in levels]),
        ):
            ax.plot(x, gaps(values), color=COLORS[key], marker="o", label=key)
        unhealthy(ax, levels, x, [lv.p99_ms for lv in levels])
        if result.p99_limit_ms:
            limit_line(ax, result.p99_limit_ms, f"p99 limit {result.p99_limit_ms} ms")
        knee_and_prediction(ax, result)
        if levels:
            log_y(ax)
        return bool(levels)

    return panels(
        "latency",
        "Latency percentiles per level",
        ("offered rate (requests/s)", "latency of OK responses (ms, log)"),
        modes,
        draw,
    )


def errors(modes: dict[str, ModeRecord], max_error_ratio: float | None) -> str:
    def draw(ax: Axes, mode: str, result: ModeRecord) -> bool:
        levels = result.levels or []
        x = gaps(lv.target_rps for lv in levels)
        steps = [b - a for a, b in zip(x, x[1:]) if b > a]
        width = 0.6 * (min(steps) if steps else max(x[0] if x else 1, 1) * 0.5)
        shares = [100 * (lv.error_ratio or 0) for lv in levels]
        kinds = error_kinds(levels, result.error_kinds or [])
        if kinds:
            # One stacked bar per level, a segment per kind: why a level failed, not only how much.
            bottom = [0.0] * len(levels)
            for i, kind in enumerate(kinds):
                part = [
                    share * lv.errors_of(kind) / max(sum((lv.errors_by_kind or {}).values()), 1)
                    for lv, share in zip(levels, shares)
                ]
                ax.bar(x, part, width=width, bottom=bottom, color=KIND_COLORS[i % len(KIND_COLORS)], label=kind)
                bottom = [b + p for b, p in zip(bottom, part)]
        else:
            ax.bar(x, shares, width=width, color=COLORS["errors"], label="errors (% of completed)")
        if max_error_ratio is not None:
            limit_line(ax, 100 * max_error_ratio, f"limit {100 * max_error_ratio:g}%")
        if levels and not any(shares):
            ax.text(
                0.5, 0.5, "no errors at any level", transform=ax.transAxes, ha="center", va="center", color="#555555"
            )
        return bool(levels)

    return panels("errors", "Errors per level", (TARGET_RATE, "errors (%)"), modes, draw)


def cpu_per_request(modes: dict[str, ModeRecord], cpu_ms: float | None, service: str = THREAD_SERVICE) -> str:
    """The thread-service's CPU per OK request at each level, against the computation each request asked for."""

    def draw(ax: Axes, mode: str, result: ModeRecord) -> bool:
        levels = [lv for lv in result.levels or [] if lv.thread_cpu_ms_per_request is not None]
        x = gaps(lv.target_rps for lv in levels)
        y = [lv.thread_cpu_ms_per_request for lv in levels]
        ax.plot(
            x,
            gaps(y),
            color=COLORS["cpu_per_request"],
            marker="o",
            label=named("thread-service CPU per OK request", service),
        )
        unhealthy(ax, levels, x, y)
        if cpu_ms:
            limit_line(ax, cpu_ms, f"CPU_MS {cpu_ms:g} ms (the work asked for)", COLORS["prediction"], 1.2)
        knee_and_prediction(ax, result)
        return bool(levels)

    return panels("cpu-per-request", "CPU per request", (TARGET_RATE, "ms of CPU per request"), modes, draw)
