"""Whether measuring began on a service that had caught up with its warm-up.

The warm-up climbs to START_RPS and holds it; the first measured level follows without a pause. A service still
behind when the warm-up ends (a cold JIT on a busy machine: a real app's virtual mode was seen ending its warm-up
with 263 requests in flight at 300 rps) serves that backlog inside the first level, whose latency and timeouts are
then the warm-up's, not START_RPS's: that level reads unhealthy and the knee would be placed "below the first
level" for a rate the service held once it had caught up. Read from the injectors' own per-second counts.

So the warm-up ends when the service is warm, not after fixed seconds: WARM means that at the warm-up's end the
requests still in flight are at most what a service answering START_RPS within the health rule's latency limit holds
(Little's law: rate x limit, and never fewer than MIN_BACKLOG). When the coarse warm-up ends short of that, bench
warms the service again for WARMUP_SECONDS and measures the stairs again from their first level
(summary/judge/fine_plan.py, REFINE=0 too); the knee stands on that pass, judged against its own baseline. A second
warm-up that still ends short leaves the mode invalid, saying the service never caught up with either.
"""

from __future__ import annotations

from dataclasses import dataclass

from loadlab.analysis.knee import Knee, Verdict
from loadlab.analysis.levels import Level
from loadlab.summary.judge.knee_record import FinePass
from loadlab.summary.reading.raw import RawMode

# Below this many requests in flight a backlog is too small to spoil a level, whatever the rate.
MIN_BACKLOG = 10


def inflight_at_end(raw: RawMode) -> float | None:
    """Requests in flight at the last second of the warm-up, all injectors together; None without warm-up rows."""
    read = []
    for inj in raw.injectors:
        warm = [s for s, row in inj.seconds.items() if row.warming_up]
        if warm:
            read.append(inj.seconds[max(warm)].inflight)
    found = [x for x in read if x is not None]
    return sum(found) if found else None


@dataclass(frozen=True)
class Backlog:
    """A warm-up that ended before the service had caught up: requests in flight at its end against what the first
    level's rate answered within the health rule's latency leaves (Little's law)."""

    inflight: float
    rate_rps: float
    healthy_max_ms: float
    allowed: float

    def reason(self) -> str:
        return (
            f"measuring began before the service had caught up with its warm-up: {self.inflight:.0f} requests were "
            f"still in flight when it ended (at {self.rate_rps:.0f} rps, answers within {self.healthy_max_ms:.0f} ms "
            f"leave at most {self.allowed:.0f}), so the first level measured the warm-up's backlog, not "
            f"{self.rate_rps:.0f} rps (or the knee lies below START_RPS): raise WARMUP_SECONDS or lower START_RPS"
        )


def backlog_of(raw: RawMode, levels: list[Level], verdict: Verdict, healthy_max_ms: float | None) -> Backlog | None:
    """The backlog the first level measured: it was unhealthy and the warm-up ended with more requests in flight than
    a service answering that rate within the health rule's latency holds (Little's law); None otherwise."""
    if verdict.first_unhealthy != 0 or not levels or not healthy_max_ms:
        return None
    inflight = inflight_at_end(raw)
    first = levels[0]
    allowed = max(MIN_BACKLOG, first.target_rps * healthy_max_ms / 1000)
    if inflight is None or inflight <= allowed:
        return None
    return Backlog(inflight, first.target_rps, healthy_max_ms, allowed)


@dataclass(frozen=True)
class WarmUp:
    """What the warm-up's end means for the mode: why it cannot be trusted (reason), or what was done (note)."""

    backlog: Backlog | None = None  # the coarse warm-up's
    reason: str | None = None
    note: str | None = None
    stands_on: str | None = None  # the pass measured again after a second warm-up, when the knee stands on it


def again_pass(backlog: Backlog | None, coarse: list[Level], fine: list[FinePass]) -> FinePass | None:
    """The pass that measured the stairs again after a second warm-up: the first fine pass, from the coarse pass's
    first rate, when the coarse warm-up ended with a backlog (fine_plan plans no other pass first then)."""
    if backlog is None or not coarse or not fine or not fine[0].tables.levels:
        return None
    first = fine[0].tables.levels[0].target_rps
    return fine[0] if abs(first - coarse[0].target_rps) <= 0.01 * coarse[0].target_rps else None


def judged(backlog: Backlog | None, again: FinePass | None, knee: Knee, warmup_seconds: int) -> WarmUp:
    """The coarse warm-up's backlog weighed with the pass that measured the stairs again after a second warm-up."""
    if backlog is None:
        return WarmUp()
    if again is None:
        return WarmUp(backlog, reason=backlog.reason())
    outcome = next((o for o in knee.passes if o.name == again.name), None)
    if outcome is None or not outcome.used:
        why = outcome.why_not_used if outcome is not None else "it was not judged"
        after = f"; the stairs measured again after a second warm-up ({again.name}) cannot be used: {why}"
        return WarmUp(backlog, reason=backlog.reason() + after)
    still = backlog_of(again.raw, outcome.levels, outcome.verdict, backlog.healthy_max_ms)
    if still is not None:
        return WarmUp(
            backlog,
            reason=(
                f"the service never caught up with its warm-up: {backlog.inflight:.0f} requests were still in flight "
                f"at the end of the first and {still.inflight:.0f} at the end of a second of {warmup_seconds} s "
                f"({again.name}), where answers within {backlog.healthy_max_ms:.0f} ms at {backlog.rate_rps:.0f} rps "
                f"leave at most {backlog.allowed:.0f}: the first level measured a backlog both times; raise "
                "WARMUP_SECONDS or lower START_RPS"
            ),
        )
    began = inflight_at_end(again.raw)
    warm = (
        f"warm ({began:.0f} in flight)"
        if began is not None
        else "with its first level healthy (its warm-up's end unrecorded)"
    )
    return WarmUp(
        backlog,
        note=(
            f"the warm-up ended before the service had caught up ({backlog.inflight:.0f} requests in flight, where "
            f"answers within {backlog.healthy_max_ms:.0f} ms at {backlog.rate_rps:.0f} rps leave at most "
            f"{backlog.allowed:.0f}), so the first level measured that backlog; the service was warmed again for "
            f"{warmup_seconds} s and the stairs measured again from their first level ({again.name}), which began "
            f"{warm}: the knee stands on that pass"
        ),
        stands_on=again.name,
    )
