"""A level bound by garbage collection: the service spent most of its seconds in GC pauses. Right before an
out-of-memory death (summary/judge/gc_crash.py) such a level is the crash coming, not the service's collapse at its
rate: the heap was full whatever the threads did, so it is counted with the crash (set aside from the knee under
WITH_THE_CRASH, never a bound: knee.bound_of) and the crash is the mode's verdict."""

from __future__ import annotations

# "Most of its time": GC pause time over the level's wall seconds above one half. Past it the service is stopped more
# than it runs, so whatever rate it held, at least half the level's latency and lost throughput is the collector's,
# not the thread model's. A service at ease pauses a few % (summary/judge/appcheck.py names pauses from 2%; G1's default
# GCTimeRatio aims at 8%), so a half is far from any healthy level; the JVM's own verdict, its GC overhead limit,
# waits for 98% before it throws OutOfMemoryError, too late to catch the level before the death.
GC_BOUND_SHARE = 0.5
# How a level counted with the crash begins its set-aside reason: what tells it from an instrument saturated.
WITH_THE_CRASH = "counted with the crash"


def is_gc_bound(share: float | None) -> bool:
    return share is not None and share > GC_BOUND_SHARE


def counted_with_the_crash(why: str) -> bool:
    """Whether a level set aside (its reason) was set aside for a crash, not for a saturated instrument."""
    return why.startswith(WITH_THE_CRASH)
