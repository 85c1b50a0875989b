"""The thread-service's own calls to the delay-service: evidence about the service, never the stand-in's blame.

The service times each call (downstream_time_ms_total / downstream_calls_total). That time is the service's view of
the call: it holds the stand-in's answer, but also every wait on the service's own side of it, a thread waiting for
a CPU to resume on after the answer came, a client queueing the request before it sends it. A starved service makes
its calls look slow at its lightest level already (seen: calls of 411-558 ms for a 100 ms delay while the stand-in's
probe said 117 ms and its own record p90 103 ms), so the service's calls alone cannot say the stand-in was slow: a
level is set aside for the stand-in only on the stand-in's own evidence, its served record (served.py) and its probe
(validity.delay_symptom). What the calls showed is said in a note, as evidence about the service.
"""

from __future__ import annotations

from loadlab.analysis import served
from loadlab.analysis.knee_words import level_words
from loadlab.analysis.levels import Level
from loadlab.analysis.validity import ValidityContext, delay_allowance_ms, delay_symptom

# A level's calls are slow beyond this many times the configured mean, plus the delay-service's allowance: a sample
# mean that far above its distribution's is not chance (a lognormal with p99 = 10x its median, the heaviest the lab
# draws, moves a mean of 100 calls by about 13%), and the starved calls seen took 4-5 times the delay.
SLOW_CALLS_RATIO = 2.0


def slow_limit_ms(mean_ms: float) -> float:
    return SLOW_CALLS_RATIO * mean_ms + delay_allowance_ms(mean_ms)


def slow_calls(level: Level, ctx: ValidityContext) -> str | None:
    """How slow the service's own calls were at this level, when beyond slow_limit_ms; None when they were not (or
    no calls were timed, or the run has no configured mean to hold them against)."""
    mean, seen = ctx.downstream_mean_ms, level.evidence.downstream_ms_mean
    if not mean or seen is None or seen <= slow_limit_ms(mean):
        return None
    return (
        f"the thread-service's calls to the delay-service took {seen:.0f} ms on average, more than "
        f"{SLOW_CALLS_RATIO:g} × its configured mean of {mean:.0f} ms + {delay_allowance_ms(mean):.0f} ms"
    )


def calls_note(levels: list[Level], ctx: ValidityContext) -> str | None:
    """The note when the service's calls were slow at its lightest level (before any load, where a slow call would
    otherwise point at the stand-in) and the stand-in's own evidence did not blame it (a level it served late, or
    whose probe was slow, is set aside for that, and says so): what the stand-in's record said, and that no level is
    set aside on the service's view alone. Above the lightest level a slow call is the service's load at work."""
    lightest = ctx.lightest or (levels[0] if levels else None)
    if lightest is None or (seen := slow_calls(lightest, ctx)) is None:
        return None
    if lightest.served_late or delay_symptom(lightest, ctx):
        return None
    more = sum(1 for lv in levels if lv is not lightest and slow_calls(lv, ctx))
    later = f" (and at {more} later level{'s' if more > 1 else ''})" if more else ""
    return (
        f"at {level_words(lightest)}, before any load, {seen}{later}, while {_own_record(lightest)}: no level is set "
        "aside for the stand-in on the service's view of its calls alone; a call's time holds the service's own "
        "waits (its threads waiting for a CPU to resume on, its client queueing the request), so this is evidence "
        "about the service"
    )


def _own_record(level: Level) -> str:
    """What the stand-in itself says of the level: its served record, its probe, or that it left neither."""
    said = []
    if served.kept_to_its_distribution(level):
        record = level.served_ms or {}
        said.append(
            f"served on time by its own record (p90 {record.get('p90', 0):.0f} ms over {record.get('answers', 0):,} "
            "answers)"
        )
    if level.evidence.delay_probe_ms is not None:
        said.append(f"answered its probe in {level.evidence.delay_probe_ms:.0f} ms (median)")
    if not said:
        return "the delay-service left no record of its own of the level (no served log, no probe) to blame it on"
    return "the delay-service " + " and ".join(said)
