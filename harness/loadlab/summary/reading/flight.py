"""The service's flight recording (infra/host/service.jfc) as one row per second: what its threads and requests cost.

`loadlab-host pinned` exports the recording's cost events with `jfr print --json` into `raw/thread/flight.json`; this
module is the one reader of that file. It works for any JVM >= 21 (the thread-service or an APP jar): every event is
the JDK's own.

Per second (epoch second the event was taken in):
- rss_mb: jdk.ResidentSetSize.
- java_threads: jdk.JavaThreadStatistics.activeCount (live platform threads; virtual threads are not threads here).
- thread_stacks_mb: NMT's "Thread Stack" committed (jdk.NativeMemoryUsage; needs -XX:NativeMemoryTracking=summary):
  the pages the threads' stacks have touched, not the 1 MB each reserves.
- heap_used_mb, heap_max_mb: jdk.GCHeapMemoryUsage.used (the heap in use including garbage not yet collected), and
  the most the heap may grow to (-Xmx).
- live_heap_mb: jdk.GCHeapSummary "After GC" in that second (blank without a GC): what the heap holds once garbage is
  gone. A waiting virtual thread's stack lives here (stack chunks), a platform thread's in thread_stacks_mb.
- allocated_mb: bytes allocated in the second (heap_walk: every rise of the heap's use between readings, a GC's
  drop not subtracted).
- gc_pause_ms, gc_count: jdk.GarbageCollection's sum of pauses, collections ending in that second.
- host_context_switches_per_s: jdk.ThreadContextSwitchRate, which the JDK reads for the whole host on Linux (the
  process's own come from the sampler, /proc).

The whole recording's counts, pinned.json, are read here too (RecordingCounts).
"""

from __future__ import annotations

import calendar
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from loadlab.core.upgrade import Doc
from loadlab.summary.reading.values import as_float

FLIGHT_JSON = "flight.json"  # beside the recording, in <mode>/raw/thread/ (written by loadlab-host pinned)
MB = 1024 * 1024
THREAD_STACK = "Thread Stack"  # NMT's category of the threads' stacks, as jdk.NativeMemoryUsage names it


@dataclass
class FlightSecond:
    second: int
    rss_mb: float | None = None
    java_threads: int | None = None
    thread_stacks_mb: float | None = None
    heap_used_mb: float | None = None
    heap_max_mb: float | None = None
    live_heap_mb: float | None = None
    allocated_mb: float = 0.0
    gc_pause_ms: float = 0.0
    gc_count: int = 0
    host_context_switches_per_s: float | None = None


def epoch_seconds(stamp: str) -> float | None:
    """`2026-11-23T19:46:30.868093100Z` (jfr print's instants, nanoseconds) as epoch seconds."""
    try:
        whole, _, fraction = stamp.rstrip("Z").partition(".")
        base = calendar.timegm((int(whole[0:4]), int(whole[5:7]), int(whole[8:10]), *_hms(whole[11:19]), 0, 0, 0))
        return base + (float("0." + fraction) if fraction else 0.0)
    except (ValueError, IndexError, AttributeError):
        return None


def _hms(text: str) -> tuple[int, int, int]:
    h, m, s = text.split(":")
    return int(h), int(m), int(s)


def duration_ms(value: object) -> float:
    """jfr print --json writes a timespan as an ISO-8601 duration (`PT0.012345S`) or as nanoseconds."""
    if isinstance(value, (int, float)):
        return value / 1e6
    if isinstance(value, str) and value.startswith("PT") and value.endswith("S"):
        try:
            return float(value[2:-1]) * 1000.0
        except ValueError:
            return 0.0
    return 0.0


def read_events(path: Path) -> list[Doc] | None:
    """The events of a flight.json, or None when there is none or it cannot be read (a JVM killed before its dump)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    events = data.get("recording", {}).get("events") if isinstance(data, dict) else None
    return [e for e in events if isinstance(e, dict)] if isinstance(events, list) else None


def per_second(events: list[Doc]) -> dict[int, FlightSecond]:
    """One FlightSecond per epoch second that had an event, keyed by that second."""
    rows: dict[int, FlightSecond] = {}
    heap: list[tuple[float, str, float]] = []  # (time, kind, bytes used) for heap_walk

    def row(t: float) -> FlightSecond:
        second = int(t)
        return rows.setdefault(second, FlightSecond(second))

    for event in events:
        kind, given = event.get("type"), event.get("values")
        values = given if isinstance(given, dict) else {}
        t = epoch_seconds(values.get("startTime", ""))
        if t is None:
            continue
        if kind == "jdk.ResidentSetSize":
            row(t).rss_mb = _mb(values.get("size"))
        elif kind == "jdk.JavaThreadStatistics":
            row(t).java_threads = _int(values.get("activeCount"))
        elif kind == "jdk.NativeMemoryUsage" and values.get("type") == THREAD_STACK:
            row(t).thread_stacks_mb = _mb(values.get("committed"))
        elif kind == "jdk.GCHeapMemoryUsage":
            row(t).heap_used_mb = _mb(values.get("used"))
            row(t).heap_max_mb = _mb(values.get("max"))
            heap.append((t, "reading", float(values.get("used") or 0)))
        elif kind == "jdk.GCHeapSummary":
            used = float(values.get("heapUsed") or 0)
            after = values.get("when") == "After GC"
            heap.append((t, "after" if after else "before", used))
            if after:
                r = row(t)
                r.live_heap_mb = used / MB if r.live_heap_mb is None else min(r.live_heap_mb, used / MB)
        elif kind == "jdk.GarbageCollection":
            end = t + duration_ms(values.get("duration")) / 1000.0
            r = row(end)
            r.gc_pause_ms += duration_ms(values.get("sumOfPauses"))
            r.gc_count += 1
        elif kind == "jdk.ThreadContextSwitchRate":
            rate = values.get("switchRate")
            row(t).host_context_switches_per_s = float(rate) if isinstance(rate, (int, float)) else None
    for second, allocated in heap_walk(heap).items():
        row(second).allocated_mb += allocated / MB
    return dict(sorted(rows.items()))


def heap_walk(readings: list[tuple[float, str, float]]) -> dict[int, float]:
    """Bytes allocated per epoch second from the heap's use in time order: every rise between two readings is
    allocation; a GC's "after" reading only resets the level (what it freed is not allocation). A drop without a GC
    (a region freed concurrently) is not counted either, so this never overstates."""
    allocated: dict[int, float] = {}
    previous = None
    for t, kind, used in sorted(readings, key=lambda r: (r[0], r[1] != "before")):
        if previous is not None and kind != "after" and used > previous:
            allocated[int(t)] = allocated.get(int(t), 0.0) + used - previous
        previous = used
    return allocated


def load(thread_raw: Path) -> dict[int, FlightSecond] | None:
    """The per-second rows of a mode's recording (`<mode>/raw/thread/`), or None when it has none."""
    events = read_events(thread_raw / FLIGHT_JSON)
    return None if events is None else per_second(events)


def _mb(value: object) -> float | None:
    return value / MB if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _int(value: object) -> int | None:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


@dataclass(frozen=True)
class RecordingCounts:
    """pinned.json, the whole recording's counts `loadlab-host pinned` wrote beside flight.json: pinning, and for an
    APP the events its evidence counts (summary/judge/appcheck.py) and its GC pauses. Each None where not measured."""

    pinned_events: int | None = None  # jdk.VirtualThreadPinned
    # Each event's count; None when no recording was read, where an empty map means none of the events happened
    event_counts: Mapping[str, float | None] | None = None
    gc_pause_total_ms: float | None = None
    gc_pause_max_ms: float | None = None

    @classmethod
    def parse(cls, doc: Doc) -> RecordingCounts:
        pinned, counts = doc.get("virtual_thread_pinned_events"), doc.get("event_counts")
        return cls(
            pinned_events=int(pinned) if isinstance(pinned, (int, float)) and not isinstance(pinned, bool) else None,
            event_counts={str(k): as_float(v) for k, v in counts.items()} if isinstance(counts, dict) else None,
            gc_pause_total_ms=as_float(doc.get("gc_pause_total_ms")),
            gc_pause_max_ms=as_float(doc.get("gc_pause_max_ms")),
        )

    def count(self, event: str) -> int | None:
        """How many of this event the recording held: 0 when it has none, None when nothing was recorded or the
        count is unreadable."""
        if self.event_counts is None:
            return None
        value = self.event_counts.get(event, 0.0)
        return None if value is None else int(value)
