"""A level bound by garbage collection right before an out-of-memory death belongs to the crash.

A heap filling up shows first as GC: pauses back to back, latency and throughput lost, then the kill (the JVM's
OutOfMemoryError or the kernel's OOM killer, crash.out_of_memory). The last level before the death then reads as the
service collapsing at that rate, when it was the crash on its way. So the levels that end the dying pass, each GC-bound
(analysis/gc_bound.py: most of its seconds in GC pauses), are counted with the crash: the coarse pass's are set aside
from the knee with that reason (judging.py), every one is named in `crashed.gc_bound` and in a note.

Their GC time is read from both of the JVM's own records: its flight recording (flight.py, every pause, by the second
it ended; lost when the kill comes before the recording is dumped) and its pause counter as server.csv has it (the
sampler's reading, through the end; it misses seconds when a JVM busy collecting does not answer, but the counter
carries the pauses over to its next reading). The larger share stands: each can only miss pauses, never add any.
"""

from __future__ import annotations

from dataclasses import dataclass

from loadlab.analysis.gc_bound import WITH_THE_CRASH, is_gc_bound
from loadlab.analysis.knee_words import COARSE, level_words
from loadlab.analysis.levels import Level, level_number
from loadlab.core.upgrade import Doc
from loadlab.summary.reading.flight import FlightSecond
from loadlab.summary.reading.seconds import Tables
from loadlab.summary.reading.values import as_float
from loadlab.summary.writing import server_columns as col

FLIGHT = "the service's flight recording"
COUNTER = "the JVM's GC pause counter (server.csv)"


@dataclass(frozen=True)
class GcBound:
    """A level of the dying pass counted with the crash: its place in the pass, its GC share and where it was read,
    and how long after its end the service was last seen alive."""

    position: int
    level: Level
    share: float
    source: str
    crash_after_s: int | None

    def reason(self) -> str:
        """Its set-aside reason (the knee is not placed at it)."""
        return f"{WITH_THE_CRASH}: {self._bound()}, {self._then()}"

    def note(self, pass_name: str) -> str:
        return (
            f"{level_words(self.level, pass_name)} was {self._bound()} and {self._then()}: it is counted with the "
            "crash, not as the service's collapse at that rate"
        )

    def as_json(self, pass_name: str) -> dict[str, object]:
        return {
            "pass": pass_name,
            "level": level_number(self.level.position),
            "level_rps": self.level.target_rps,
            "gc_pause_share": round(self.share, 3),
            "read_from": self.source,
            "crash_after_s": self.crash_after_s,
        }

    def _bound(self) -> str:
        return f"GC-bound ({self.share:.0%} of its seconds in GC pauses, by {self.source})"

    def _then(self) -> str:
        after = self.crash_after_s
        return "the out-of-memory kill followed" + ("" if after is None else f" {after} s later")


def before_crash(crashed: Doc | None, tables: Tables, flights: dict[int, FlightSecond] | None) -> list[GcBound]:
    """The GC-bound levels that end the dying pass (tables: its own, cut at the crash), last one first, when the
    death was one of memory; [] otherwise. Only the run of them right before the death: a level that was not GC-bound
    between them and the death says the heap still coped there."""
    if not crashed or not crashed.get("out_of_memory"):
        return []
    found = []
    for position in range(len(tables.levels) - 1, -1, -1):
        level = tables.levels[position]
        share, source = pause_share(level, tables, flights or {})
        if share is None or not is_gc_bound(share):
            break
        found.append(GcBound(position, level, share, source, _after(crashed, level)))
    return found


def pause_share(level: Level, tables: Tables, flights: dict[int, FlightSecond]) -> tuple[float | None, str]:
    """(GC pause time over the level's seconds, the record it was read from): the larger of the two records."""
    if level.first_second is None or not level.seconds or tables.t0 is None:
        return None, ""
    seconds = range(level.first_second, level.first_second + level.seconds)
    wall_ms = 1000.0 * level.seconds
    shares = []
    recorded = [flights[tables.t0 + s] for s in seconds if tables.t0 + s in flights]
    if recorded:
        shares.append((sum(r.gc_pause_ms for r in recorded) / wall_ms, FLIGHT))
    read = [as_float(row.get(col.GC_PAUSE_MS)) for row in tables.server if row.get(col.SECOND) in seconds]
    counted = [v for v in read if v is not None]
    if counted:  # ms paused per second, each reading spread over the seconds since the one before
        shares.append((sum(counted) / len(counted) / 1000.0, COUNTER))
    return max(shares, default=(None, ""))


def _after(crashed: Doc, level: Level) -> int | None:
    """Whole seconds from the level's end to the death: the second after the last one the service was seen alive."""
    second = crashed.get("second")
    if not isinstance(second, int) or level.first_second is None:
        return None
    return max(0, int(second) + 1 - (level.first_second + level.seconds))


def words(found: list[GcBound], pass_name: str = COARSE) -> list[str]:
    return [bound.note(pass_name) for bound in reversed(found)]
