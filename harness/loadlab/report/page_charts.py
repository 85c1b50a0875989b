"""Which charts a run's page shows, each with its caption and the limits drawn on it."""

from __future__ import annotations

from pathlib import Path

from loadlab.analysis import validity
from loadlab.core import app, scenario_mix
from loadlab.report.charts import level_charts, server_charts
from loadlab.report.headline import scenario_of
from loadlab.report.series import read_series
from loadlab.summary.verdicts.records import RunSummary

CAPTIONS = {
    "throughput": "Each point is one level. OK/s follows the target line while the service keeps up; the knee is "
    "the last healthy level before the first unhealthy one (red ×).",
    "latency": "Percentiles of successful responses over all of a level's requests. A platform pool that has run "
    "out of threads shows as p95/p99 leaving the baseline near Little's law.",
    "errors": "Failed requests (timeouts, 5xx, refused connections) as a share of those completed in the level, "
    "stacked by kind when the injector classified them (counts in the tables below).",
    "server-threads": "Sampled once a second from the thread-service's management port (log scale). Platform "
    "mode: busy Tomcat threads, and the requests being handled on them, stop at the pool size; "
    "the queue in front of the pool is not visible here. Virtual mode: every request in flight "
    "has its own virtual thread (rate × latency, Little's law) while live JVM threads stay flat.",
    "server-heap": "Heap used by the thread-service.",
    "server-cpu": "CPU of each role's processes, 100% = one core; on one machine they compete for the same cores.",
    "server-host": "CPU of each role's whole host, 100% = all its cores. When every role shares one machine, a "
    "machine saturated before the knee makes the run invalid: it would measure the machine, not the "
    "thread model.",
    "server-delay": "The delay-service's own latency, timed once a second by a probe on its own host (log scale), "
    "next to what the thread-service's calls to it took, which also holds the thread-service's own "
    "waits for a CPU. A level whose median probe is above the limit, or whose probe got no answer, "
    "makes the run invalid: the delay-service was the bottleneck, not the thread model.",
    "server-pool": "HikariCP's connections in use and requests waiting for one, sampled once a second. Past the "
    "pool's knee every connection is in use and the queue moves from Tomcat into the pool: virtual "
    "threads wait there just like platform threads, until the pool's timeout fails them.",
    "cpu-per-request": "The thread-service's CPU per successful request at each level (process CPU / OK "
    "requests per second). It stays near CPU_MS while a core is free; the knee comes when "
    "rate × CPU per request fills the cores, whatever the thread model.",
}


def figures(run_dir: Path, summary: RunSummary, folders: dict[str, str]) -> list[tuple[str, str, str, str]]:
    """(section title, data-chart name, svg, caption) for every chart of the page, in its order; folders: mode ->
    its folder under run_dir (with REPEAT > 1 the mode shown is one repetition's, `rep-<k>/<mode>`)."""
    shown = summary.modes
    if not shown:
        return []
    series = {mode: read_series(run_dir / folders[mode] / "server.csv") for mode in shown}
    found = [
        ("Throughput", "throughput", level_charts.throughput(shown), CAPTIONS["throughput"]),
        ("Latency", "latency", level_charts.latency(shown), CAPTIONS["latency"]),
        (
            "Errors",
            "errors",
            level_charts.errors(shown, summary.thresholds.max_error_ratio if summary.thresholds else None),
            CAPTIONS["errors"],
        ),
    ]
    params = summary.params
    service = app.service_label(params)
    scenario = scenario_of(summary)
    cpu_ms: float = params.cpu_ms
    kinds = scenario_mix.kinds(scenario)
    if cpu_ms and len(kinds) > 1:  # a mix: CPU_MS is its cpu kind's, the line the mix's mean per request
        cpu_ms *= scenario_mix.fractions(scenario).get("cpu", 0.0)
    if "cpu" in kinds or cpu_ms:
        found.append(
            (
                "CPU per request",
                "cpu-per-request",
                level_charts.cpu_per_request(shown, cpu_ms, service),
                CAPTIONS["cpu-per-request"],
            )
        )
    one_machine = validity.shares_one_machine(summary.target)
    limits = server_limits(params.delay_ms, params.db_pool, one_machine)
    panels = [
        name
        for name in server_charts.SERVER_PANELS
        if name not in server_charts.CONDITIONAL_PANELS or (name == "server-pool" and "db" in kinds)
    ]
    found += [
        (
            f"Server: {server_charts.SERVER_PANELS[name][0]}",
            name,
            server_charts.chart(name, shown, series, limits.get(name), one_machine, service),
            CAPTIONS[name],
        )
        for name in panels
    ]
    return found


def server_limits(delay_ms: float, pool: float, one_machine: bool) -> dict[str, tuple[float, str]]:
    """The validity limits drawn on the server charts, the same numbers validity.py judges with: DELAY_MS's allowance
    and DB_POOL's connections."""
    if one_machine:
        limits = {
            "server-host": (
                validity.MACHINE_SATURATED_HOST_PCT,
                f"machine saturated ({validity.MACHINE_SATURATED_HOST_PCT:g}%)",
            )
        }
    else:
        limits = {
            "server-host": (
                validity.CPU_SATURATED_RATIO * 100,
                f"host saturated ({validity.CPU_SATURATED_RATIO * 100:g}%)",
            )
        }
    allowed = validity.delay_allowance_ms(delay_ms)
    limits["server-delay"] = (delay_ms + allowed, f"limit {delay_ms:g} + {allowed:g} ms")
    limits["server-pool"] = (pool, f"DB_POOL {pool:g} connections")
    return limits
