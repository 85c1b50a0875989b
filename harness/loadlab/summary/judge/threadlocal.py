"""THREADLOCAL_KB's evidence for one mode: how often the per-thread object was built, per request.

The thread-service counts every build (threadlocal_builds_total) and every workload request (requests_total); the
sampler records both once a second into jvm.csv. A pool builds the object once per pooled thread (a handful of
builds, almost all during the warm-up); a virtual thread per request builds it on every request. The measured
phase is where the page's costs come from, so builds per request are its counters' increase over that phase; the
totals since start (the warm-up's included) are kept beside them.

What the builds cost is measured where every cost is: the thread-service's CPU per request and the CPU ceiling that
follows (cpufit.py, `cpu_ceiling`), the heap it allocates per request (`bytes_allocated_per_request`). The object's
own bytes per request (`bytes_built_per_request`, builds per request x its size) say how much of that it explains.
"""

from __future__ import annotations

from dataclasses import dataclass

from loadlab.core import metrics
from loadlab.summary.reading.raw import RawMode
from loadlab.summary.reading.raw_rows import NO_METRICS
from loadlab.summary.reading.seconds import Tables
from loadlab.summary.reading.values import as_float
from loadlab.summary.schema.detail_records import ThreadlocalRecord


@dataclass(frozen=True)
class ThreadLocalUse:
    kb: float  # the object's size, as the service reported it (else THREADLOCAL_KB)
    builds: float  # during the measured phase
    requests: float  # workload requests the service started during the measured phase
    builds_since_start: float | None
    requests_since_start: float | None

    @property
    def builds_per_request(self) -> float | None:
        return self.builds / self.requests if self.requests else None

    def record(self) -> ThreadlocalRecord:
        per_request = self.builds_per_request
        return ThreadlocalRecord(
            kb=self.kb,
            builds=round(self.builds),
            requests=round(self.requests),
            builds_per_request=None if per_request is None else round(per_request, 4),
            bytes_built_per_request=None if per_request is None else round(per_request * self.kb * 1024),
            builds_since_start=self.builds_since_start,
            requests_since_start=self.requests_since_start,
        )


def counters_at(raw: RawMode, second: int) -> tuple[float, float] | None:
    row = raw.jvm.get(second, NO_METRICS)
    builds, requests = row.metric(metrics.THREADLOCAL_BUILDS_TOTAL), row.metric(metrics.REQUESTS_TOTAL)
    return None if builds is None or requests is None else (builds, requests)


def use_of(raw: RawMode, tables: Tables, asked_kb: int) -> ThreadLocalUse | None:
    """None when requests used no per-thread object (THREADLOCAL_KB=0, or a run from before it), or when the
    sampler recorded too little of the measured phase to tell. asked_kb: THREADLOCAL_KB, where the service did not
    say its own."""
    kb = as_float(raw.live_config.get(metrics.THREADLOCAL_KB))
    kb = kb if kb is not None else float(asked_kb)
    if not kb or tables.t0 is None or not tables.timeline:
        return None
    end = tables.t0 + len(tables.timeline) - 1
    counters = {s: found for s in sorted(raw.jvm) if (found := counters_at(raw, s)) is not None}
    inside = [s for s in counters if tables.t0 <= s <= end]
    if len(inside) < 2:
        return None
    (b0, r0), (b1, r1) = counters[inside[0]], counters[inside[-1]]
    last = counters[max(counters)]
    return ThreadLocalUse(kb, b1 - b0, r1 - r0, last[0], last[1])


def summary_of(raw: RawMode, tables: Tables, asked_kb: int) -> ThreadlocalRecord | None:
    """The mode's `threadlocal` field of summary.json."""
    use = use_of(raw, tables, asked_kb)
    return None if use is None else use.record()
