"""The service's own calls as the stand-in's witness (analysis/downstream_calls.py): a delay-service whose probe and
timers look on time but that answered the service's calls late before any load sets its levels aside, named, instead
of reading as the pool's collapse; a call that grew slow only under load is the service's own (a carrier waited for),
never blamed on the stand-in."""

from loadlab.analysis import set_aside, validity
from loadlab.analysis.hlog import LatencyStats
from loadlab.analysis.levels import Evidence, Level
from loadlab.analysis.validity import ValidityContext
from loadlab.core.thresholds import Thresholds

# The lab's default: a constant 100 ms downstream, judged on a shared machine.
CALLS = ValidityContext(delay_ms=100, shared_machine=True, downstream_mean_ms=100)
ON_TIME = dict(delay_probe_ms=103, delay_probe_failed=0.0)


def level(index: int, target: int, p50: float, calls_ms: float | None) -> Level:
    ok = target * 10
    evidence = Evidence(host_cpu_pct=40, downstream_ms_mean=calls_ms, **ON_TIME)
    return Level(index, target, 10, ok, ok, 0, LatencyStats(ok, p50, p50 * 1.2, p50 * 1.2, p50 * 1.3), 0, evidence)


def judged(levels: list[Level], ctx: ValidityContext = CALLS):
    verdict = set_aside.judge_trusted(levels, Thresholds(), ctx)
    return verdict, validity.validity(levels, verdict, ctx)


def test_a_stand_in_late_to_the_service_before_any_load_is_named_not_read_as_the_pools_collapse():
    # As seen with the delay-service at 3% of a core: its probe on time, the service's calls 411-558 ms.
    levels = [level(0, 20, 778, 478), level(1, 40, 1500, 530), level(2, 60, 2400, 558)]
    verdict, reasons = judged(levels)
    assert verdict.set_aside[0] == (
        "the delay-service answered the service late: the thread-service's calls to it took 478 ms on average, more "
        "than 2 × its configured mean of 100 ms + 20 ms, at the lightest level, before any load"
    )
    assert verdict.set_aside[2].endswith("as at the lightest level (478 ms), before any load")
    assert sorted(verdict.set_aside) == [0, 1, 2] and not verdict.collapsed
    assert reasons and "no level measured on levels that can be trusted" in reasons[-1]


def test_calls_that_grew_slow_only_under_load_are_the_services_own():
    # virtual at its CPU knee: its threads waited for a carrier after the answer came; the stand-in was on time.
    levels = [level(0, 200, 101, 104), level(1, 400, 102, 108), level(2, 600, 900, 700)]
    verdict, _ = judged(levels)
    assert verdict.set_aside == {} and verdict.collapsed and verdict.sustained_rps == 400


def test_calls_within_twice_the_mean_and_runs_without_a_witness_are_not_judged():
    assert judged([level(0, 20, 215, 215), level(1, 40, 230, 230)])[0].set_aside == {}
    slow = [level(0, 20, 778, 478), level(1, 40, 900, 530)]
    assert judged(slow, ValidityContext(delay_ms=100, shared_machine=True))[0].set_aside == {}
    assert judged([level(0, 20, 778, None), level(1, 40, 900, None)])[0].set_aside == {}
