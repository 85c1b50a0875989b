"""The fields of the thread-service's GET /actuator/loadlab, read from the one list the service itself is held to
(service-contract/src/main/resources/loadlab/metrics.tsv: LoadlabEndpoint refuses to start when it emits anything
else). The harness spells none of them on its own: the sampler records every field of this list (the harness hands
it the names, so a remote host needs no copy of the file), the live configuration is its info and config fields,
server.csv copies every gauge and turns every counter into a rate, unless a derived column reads it (DERIVED in
summary/reading/seconds.py). A new metric is one line in metrics.tsv; a name the Python side uses but the list lacks
fails test_metrics.py. Standard library only.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from loadlab.core.repo import REPO

METRICS_TSV = REPO / "service-contract" / "src" / "main" / "resources" / "loadlab" / "metrics.tsv"
KINDS = ("info", "config", "gauge", "counter")
# What the sampler records once a second into jvm.csv: numbers (the info fields are text, read once at start).
SAMPLED_KINDS = ("config", "gauge", "counter")
# What bench reads once, when the service is up, into config.json (the verdict compares it with the request).
LIVE_CONFIG_KINDS = ("info", "config")

# The fields the harness reads by meaning, each spelled here once (test_metrics.py fails when one is not in the
# list): the live-config check, the pool evidence, the drain, server.csv's fixed and derived columns.
THREAD_MODE = "thread_mode"
JAVA_VERSION_FEATURE = "java_version_feature"
VIRTUAL_SCHEDULER_PARALLELISM = "virtual_scheduler_parallelism"
TOMCAT_THREADS_MAX = "tomcat_threads_max"
DB_POOL_MAX = "db_pool_max"
DB_POOL_ACTIVE = "db_pool_active"
DB_POOL_PENDING = "db_pool_pending"
INFLIGHT_REQUESTS = "inflight_requests"
JVM_THREADS_LIVE = "jvm_threads_live"
VIRTUAL_THREADS_MOUNTED = "virtual_threads_mounted"
VIRTUAL_THREADS_QUEUED = "virtual_threads_queued"
TOMCAT_THREADS_BUSY = "tomcat_threads_busy"
HEAP_USED_BYTES = "heap_used_bytes"
GC_PAUSE_MS_TOTAL = "gc_pause_ms_total"
DOWNSTREAM_CALLS_TOTAL = "downstream_calls_total"
DOWNSTREAM_TIME_MS_TOTAL = "downstream_time_ms_total"
TOMCAT_QUEUE_SIZE = "tomcat_queue_size"
TOMCAT_MAX_CONNECTIONS = "tomcat_max_connections"
REQUESTS_TOTAL = "requests_total"
THREADLOCAL_KB = "threadlocal_kb"
THREADLOCAL_BUILDS_TOTAL = "threadlocal_builds_total"
DOWNSTREAM_CONCURRENCY_LIMIT = "downstream_concurrency_limit"
DOWNSTREAM_REJECTED_TOTAL = "downstream_rejected_total"
DOWNSTREAM_CLIENT = "downstream_client"
DOWNSTREAM_CLIENT_POOL_PER_ROUTE = "downstream_client_pool_per_route"
DOWNSTREAM_CLIENT_POOL_TOTAL = "downstream_client_pool_total"
FANOUT_SHAPE = "fanout_shape"
FANOUT_POOL = "fanout_pool"
READ_BY_NAME = (
    THREAD_MODE,
    JAVA_VERSION_FEATURE,
    VIRTUAL_SCHEDULER_PARALLELISM,
    TOMCAT_THREADS_MAX,
    DB_POOL_MAX,
    DB_POOL_ACTIVE,
    DB_POOL_PENDING,
    INFLIGHT_REQUESTS,
    JVM_THREADS_LIVE,
    VIRTUAL_THREADS_MOUNTED,
    VIRTUAL_THREADS_QUEUED,
    TOMCAT_THREADS_BUSY,
    HEAP_USED_BYTES,
    GC_PAUSE_MS_TOTAL,
    DOWNSTREAM_CALLS_TOTAL,
    DOWNSTREAM_TIME_MS_TOTAL,
    TOMCAT_QUEUE_SIZE,
    TOMCAT_MAX_CONNECTIONS,
    REQUESTS_TOTAL,
    THREADLOCAL_KB,
    THREADLOCAL_BUILDS_TOTAL,
    DOWNSTREAM_CONCURRENCY_LIMIT,
    DOWNSTREAM_REJECTED_TOTAL,
    DOWNSTREAM_CLIENT,
    DOWNSTREAM_CLIENT_POOL_PER_ROUTE,
    DOWNSTREAM_CLIENT_POOL_TOTAL,
    FANOUT_SHAPE,
    FANOUT_POOL,
)


@dataclass(frozen=True)
class Metric:
    name: str
    kind: str
    unit: str
    meaning: str


@functools.cache
def load(path: Path = METRICS_TSV) -> tuple[Metric, ...]:
    """Every field, in the file's order; `#` lines are comments, columns are tab-separated."""
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) != 4 or cells[1] not in KINDS:
            raise ValueError(
                f"{path}:{number}: expected name<TAB>kind<TAB>unit<TAB>meaning with kind in "
                f"{'|'.join(KINDS)}, got {line!r}"
            )
        found.append(Metric(*cells))
    return tuple(found)


def names(*kinds: str) -> list[str]:
    """The fields of these kinds (all when none is given), in the file's order."""
    return [m.name for m in load() if not kinds or m.kind in kinds]
