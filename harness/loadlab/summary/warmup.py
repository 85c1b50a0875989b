"""Whether measuring began on a service that had caught up with its warm-up.

The warm-up climbs to START_RPS and holds it; the first measured level follows without a pause. A service still
behind when the warm-up ends (a cold JIT on a busy machine: a real app's virtual mode was seen ending its warm-up
with 263 requests in flight at 300 rps) serves that backlog inside the first level, whose latency and timeouts are
then the warm-up's, not START_RPS's: that level reads unhealthy and the knee would be placed "below the first
level" for a rate the service held once it had caught up. Read from the injectors' own per-second counts.
"""

from __future__ import annotations

from loadlab.analysis.knee import Verdict
from loadlab.analysis.levels import Level
from loadlab.summary.raw import RawMode
from loadlab.summary.values import as_float

WARMUP_PHASE = "warmup"
# Below this many requests in flight a backlog is too small to spoil a level, whatever the rate.
MIN_BACKLOG = 10


def inflight_at_end(raw: RawMode) -> float | None:
    """Requests in flight at the last second of the warm-up, all injectors together; None without warm-up rows."""
    read = []
    for inj in raw.injectors:
        warm = [s for s, row in inj.seconds.items() if row.get("phase") == WARMUP_PHASE]
        if warm:
            read.append(as_float(inj.seconds[max(warm)].get("inflight")))
    found = [x for x in read if x is not None]
    return sum(found) if found else None


def backlog_reason(raw: RawMode, levels: list[Level], verdict: Verdict, healthy_max_ms: float | None) -> str | None:
    """Why the first level cannot stand for START_RPS: it was unhealthy and the warm-up ended with more requests in
    flight than a service answering that rate within the health rule's latency holds (Little's law); None
    otherwise."""
    if verdict.first_unhealthy != 0 or not levels or not healthy_max_ms:
        return None
    inflight = inflight_at_end(raw)
    first = levels[0]
    allowed = max(MIN_BACKLOG, first.target_rps * healthy_max_ms / 1000)
    if inflight is None or inflight <= allowed:
        return None
    return (
        f"measuring began before the service had caught up with its warm-up: {inflight:.0f} requests were still in "
        f"flight when it ended (at {first.target_rps:.0f} rps, answers within {healthy_max_ms:.0f} ms leave at most "
        f"{allowed:.0f}), so the first level measured the warm-up's backlog, not {first.target_rps:.0f} rps (or the "
        "knee lies below START_RPS): raise WARMUP_SECONDS or lower START_RPS"
    )
