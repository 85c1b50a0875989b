"""The thread host's limits on threads and memory, and the two ceilings that follow from them.

`loadlab-host limits` reads the host's own limits at run time (kernel.pid_max, kernel.threads-max, vm.max_map_count,
MemTotal, the cgroup the host runs in) and derives the limits of the cgroup the service under test runs in
(`service_pids_max`, `service_memory_max_mb`, and `service_heap_max_mb`, its -Xmx, each with the limit that set
it): the rule is written once, there. It writes them to `<mode>/raw/thread/limits.json` when the service starts; the
preflight asks the same command before a run. This module reads them and turns them into:

- the thread ceiling (platform pools, models.threads): at most `service_pids_max - JVM_OWN_THREADS` request threads
  can exist, so a pool can hold at most that many requests at a time: Little's law with that many threads.
- the memory ceiling (any mode): the memory a limit leaves above what the service held at its lightest level, divided
  by the measured memory per in-flight request, is how many requests fit in flight at once; Little's law again. Two
  limits apply: the cgroup's memory (against the resident memory and live heap + thread stacks per request), and the
  heap's maximum (against the live heap alone: a waiting virtual thread's stack lives there). Its interval comes from
  the slope's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from loadlab.analysis.prediction import Prediction

LIMITS_JSON = "limits.json"  # in <mode>/raw/thread/, written by loadlab-host measured-service
# Threads a Spring Boot JVM runs besides its request threads (GC, JIT compilers, Tomcat's acceptor and pollers, the
# management server, the HTTP client, JFR): 40-60 measured for the thread-service, with room for an APP jar's own.
JVM_OWN_THREADS = 100


@dataclass(frozen=True)
class HostLimits:
    pid_max: int | None = None
    threads_max: int | None = None
    max_map_count: int | None = None
    mem_total_mb: int | None = None
    service_pids_max: int | None = None
    service_pids_max_by: str = ""
    service_memory_max_mb: int | None = None
    service_memory_max_by: str = ""
    service_heap_max_mb: int | None = None  # the -Xmx the service ran with (a share of service_memory_max_mb)
    service_heap_max_by: str = ""

    @classmethod
    def from_mapping(cls, values: Mapping[str, object]) -> HostLimits:
        def number(key: str) -> int | None:
            value = values.get(key)
            if not isinstance(value, (int, float, str)):
                return None
            try:
                return int(value)
            except ValueError:
                return None

        return cls(
            pid_max=number("pid_max"),
            threads_max=number("threads_max"),
            max_map_count=number("max_map_count"),
            mem_total_mb=number("mem_total_mb"),
            service_pids_max=number("service_pids_max"),
            service_pids_max_by=str(values.get("service_pids_max_by") or ""),
            service_memory_max_mb=number("service_memory_max_mb"),
            service_memory_max_by=str(values.get("service_memory_max_by") or ""),
            service_heap_max_mb=number("service_heap_max_mb"),
            service_heap_max_by=str(values.get("service_heap_max_by") or ""),
        )

    @classmethod
    def from_lines(cls, text: str) -> HostLimits:
        """`loadlab-host limits` output: key=value lines."""
        return cls.from_mapping(dict(line.split("=", 1) for line in text.splitlines() if "=" in line))

    @property
    def request_threads(self) -> int | None:
        """How many request threads the service's cgroup lets a JVM run."""
        return None if self.service_pids_max is None else max(self.service_pids_max - JVM_OWN_THREADS, 0)

    def describe_threads(self) -> str:
        return (
            f"{self.service_pids_max:,} threads for the service (pids.max of its cgroup: {self.service_pids_max_by})"
            f" less {JVM_OWN_THREADS} of the JVM's own"
        )

    def as_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


def read(thread_raw: Path) -> HostLimits | None:
    """The limits a mode's service ran under, or None for a run without them."""
    try:
        values = json.loads((thread_raw / LIMITS_JSON).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return HostLimits.from_mapping(values) if isinstance(values, dict) else None


def pool_too_big(pool: int, limits: HostLimits) -> str | None:
    """Why a platform pool of this size cannot fit the host (one line), or None."""
    room = limits.request_threads
    if room is None or pool <= room:
        return None
    return (
        f"PLATFORM_THREADS={pool}: a pool of {pool:,} threads cannot fit the thread host: {limits.describe_threads()}"
        f" leave room for {room:,}: use at most {room}"
    )


def memory_ceiling(
    room_mb: float | None,
    room_what: str,
    base_mb: float | None,
    base_what: str,
    kb_per_inflight: float | None,
    kb_interval: tuple[float, float] | None,
    fitted_on_rps: tuple[float, float] | None,
    r2: float | None,
    levels: int | None,
    baseline_ms: float | None,
) -> Prediction | None:
    """The requests that fit in flight in what a memory limit (room_mb: the cgroup's, or the heap's maximum) leaves
    above what the service held at its lightest level (base_mb), at kb_per_inflight each, each for the baseline
    latency. The slope's interval gives the rate's; a slope whose interval reaches 0 leaves no upper end. It assumes
    the rest of the service stays as it was at that level."""
    if not room_mb or not baseline_ms or base_mb is None or not kb_per_inflight or kb_per_inflight <= 0:
        return None
    free_kb = (room_mb - base_mb) * 1024
    if free_kb <= 0:
        return None

    def rate(kb: float) -> float:
        return free_kb / kb * 1000.0 / baseline_ms

    rps = rate(kb_per_inflight)
    interval = None
    if kb_interval is not None:
        low_kb, high_kb = kb_interval
        interval = (rate(high_kb), rate(low_kb) if low_kb > 0 else None)
    return Prediction(
        rps,
        "memory",
        f"memory: ({room_mb:,.0f} MB {room_what} − {base_mb:,.0f} MB {base_what}) / {kb_per_inflight:,.1f} KB per "
        f"request in flight / {baseline_ms / 1000:.3f} s (baseline p50) = {rps:,.0f} rps",
        interval=interval,
        fitted_on=fitted_on_rps,
        r2=r2,
        levels=levels,
    )
