"""server.csv's columns, named once: summary/reading/seconds.py fills them, summary/writing/outputs.py writes them in
this order, report/ (the server charts and their colours) reads them by these constants. The thread-service's own gauges
keep the names metrics.tsv gives them (core/metrics.py), so Java and Python agree by that list (test_metrics.py);
test_server_columns.py holds the written file, the rows and the readers to this module.
"""

from __future__ import annotations

from loadlab.core import metrics

SECOND = "second"
# The hosts' samplers' columns (not the thread-service's metrics): process and host CPU, the delay probe.
THREAD_CPU_PCT = "thread_cpu_pct"
DELAY_CPU_PCT = "delay_cpu_pct"
INJECTOR_CPU_PCT = "injector_cpu_pct"  # the busiest injector's process
THREAD_HOST_CPU_PCT = "thread_host_cpu_pct"
DELAY_HOST_CPU_PCT = "delay_host_cpu_pct"
INJECTOR_HOST_CPU_PCT = "injector_host_cpu_pct"  # the busiest injector's host
DELAY_PROBE_MS = "delay_probe_ms"
# server.csv puts the thread-service's CPU first, the other roles' columns after the JVM's.
BESIDE_THE_JVM = (
    DELAY_CPU_PCT,
    INJECTOR_CPU_PCT,
    THREAD_HOST_CPU_PCT,
    DELAY_HOST_CPU_PCT,
    INJECTOR_HOST_CPU_PCT,
    DELAY_PROBE_MS,
)
ROLE_COLUMNS = (THREAD_CPU_PCT, *BESIDE_THE_JVM)

# Computed from the JVM's metrics (metrics.tsv) rather than copied: column -> the metrics it reads.
HEAP_USED_MB = "heap_used_mb"
GC_PAUSE_MS = "gc_pause_ms"
DOWNSTREAM_MS_MEAN = "downstream_ms_mean"
DERIVED = {
    HEAP_USED_MB: (metrics.HEAP_USED_BYTES,),
    GC_PAUSE_MS: (metrics.GC_PAUSE_MS_TOTAL,),
    DOWNSTREAM_MS_MEAN: (metrics.DOWNSTREAM_CALLS_TOTAL, metrics.DOWNSTREAM_TIME_MS_TOTAL),
}
# Every other counter becomes a rate: its increase per second, in a column named after it with this suffix.
RATE_SUFFIX = "_per_s"

# The first columns in a fixed order; then every other column of the thread-service's metrics, in metrics.tsv's order.
BASE_COLUMNS = [
    SECOND,
    THREAD_CPU_PCT,
    metrics.JVM_THREADS_LIVE,
    metrics.VIRTUAL_THREADS_MOUNTED,
    metrics.VIRTUAL_THREADS_QUEUED,
    metrics.TOMCAT_THREADS_BUSY,
    metrics.INFLIGHT_REQUESTS,
    HEAP_USED_MB,
    GC_PAUSE_MS,
    DOWNSTREAM_MS_MEAN,
    *BESIDE_THE_JVM,
    # db scenario: HikariCP's connections in use and requests waiting for one (blank elsewhere)
    metrics.DB_POOL_ACTIVE,
    metrics.DB_POOL_PENDING,
]


def copied_gauges() -> list[str]:
    """The gauges server.csv holds as read: every gauge of metrics.tsv that no derived column reads."""
    used = {name for inputs in DERIVED.values() for name in inputs}
    return [name for name in metrics.names("gauge") if name not in used]


def rated_counters() -> list[str]:
    used = {name for inputs in DERIVED.values() for name in inputs}
    return [name for name in metrics.names("counter") if name not in used]


def metric_columns() -> list[str]:
    """Every server.csv column that comes from the thread-service's metrics."""
    return [*copied_gauges(), *(name + RATE_SUFFIX for name in rated_counters()), *DERIVED]


COLUMNS = BASE_COLUMNS + [c for c in metric_columns() if c not in BASE_COLUMNS]
