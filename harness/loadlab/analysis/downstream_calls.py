"""The thread-service's own calls to the delay-service, as a witness of the stand-in.

The delay-service's probe (one request a second on its own host) and its served-delay record (the timers it fired)
can both look healthy while the stand-in is too starved to read and answer the service's requests: seen with its
process at 3% of a core, probe 117 ms and served p90 103 ms for a 100 ms delay while the service's calls to it took
411-558 ms on average, and the pool's column read as a collapse at its lightest level. The service times each call
(downstream_time_ms_total / downstream_calls_total), and its HTTP client has no connection cap, so at the lightest
level, before any load, a call takes the stand-in's delay: much more means the stand-in, or the path to it, was slow.

Above the lightest level a slow call can be the service's own doing (a virtual thread waiting for a carrier at its
CPU knee resumes late after the answer came), so a later level is held against this rule only when the lightest
level already broke it: the stand-in was slow before the service had any load to be slow with.
"""

from __future__ import annotations

from loadlab.analysis.levels import Level
from loadlab.analysis.validity import ValidityContext, delay_allowance_ms

# A level's calls are slow beyond this many times the configured mean, plus the delay-service's allowance: a sample
# mean that far above its distribution's is not chance (a lognormal with p99 = 10x its median, the heaviest the lab
# draws, moves a mean of 100 calls by about 13%), and the starved stand-in seen took 4-5 times its delay.
SLOW_CALLS_RATIO = 2.0


def slow_limit_ms(mean_ms: float) -> float:
    return SLOW_CALLS_RATIO * mean_ms + delay_allowance_ms(mean_ms)


def slow_calls(level: Level, ctx: ValidityContext) -> str | None:
    """Why the service's calls say the stand-in was slow at this level, or None (no calls timed, no configured mean,
    the lightest level's calls on time, or this level's)."""
    mean = ctx.downstream_mean_ms
    lightest = ctx.lightest
    if not mean or lightest is None:
        return None
    limit = slow_limit_ms(mean)
    before_load = lightest.evidence.downstream_ms_mean
    seen = level.evidence.downstream_ms_mean
    if before_load is None or before_load <= limit or seen is None or seen <= limit:
        return None
    where = (
        "at the lightest level, before any load"
        if level is lightest
        else f"as at the lightest level ({before_load:.0f} ms), before any load"
    )
    return (
        f"the thread-service's calls to it took {seen:.0f} ms on average, more than {SLOW_CALLS_RATIO:g} × its "
        f"configured mean of {mean:.0f} ms + {delay_allowance_ms(mean):.0f} ms, {where}"
    )
