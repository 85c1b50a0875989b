"""Writing the derived files: the contract's CSV columns; files are replaced, never half-written."""

from __future__ import annotations

import csv
import io
import math
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from loadlab.summary.seconds import metric_columns

TIMELINE_COLUMNS = ["second", "offered_rps", "ok", "ko", "p50_ms", "p95_ms", "p99_ms", "max_ms"]
# The first columns in a fixed order (the thread-service's gauges among them are metrics.tsv names, checked by
# test_metric_names.py); then every other column of the thread-service's metrics, in metrics.tsv's order.
SERVER_BASE_COLUMNS = [
    "second",
    "thread_cpu_pct",
    "jvm_threads_live",
    "virtual_threads_mounted",
    "virtual_threads_queued",
    "tomcat_threads_busy",
    "inflight_requests",
    "heap_used_mb",
    "gc_pause_ms",
    "downstream_ms_mean",
    "delay_cpu_pct",
    "injector_cpu_pct",
    "thread_host_cpu_pct",
    "delay_host_cpu_pct",
    "injector_host_cpu_pct",
    "delay_probe_ms",
    # db scenario: HikariCP's connections in use and requests waiting for one (blank elsewhere)
    "db_pool_active",
    "db_pool_pending",
]
SERVER_COLUMNS = SERVER_BASE_COLUMNS + [c for c in metric_columns() if c not in SERVER_BASE_COLUMNS]


def write_csv(path: Path, columns: list[str], rows: Iterable[dict]) -> None:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([cell(row.get(c)) for c in columns])
    write_text(path, out.getvalue())


def write_text(path: Path, text: str) -> None:
    # Replace, not overwrite: a page open in a browser or a concurrent `make report` never sees half a file.
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        if not math.isfinite(value):
            return ""
        value = round(value, 1)
        return str(int(value)) if value.is_integer() else str(value)
    return str(value)
