"""A brownout column whose service died (summary/verdicts/brownout_figures.py): what stopped with it — the
delay-service's slow answers never reaching a dead service, the injectors' load stopped behind it — is the death's
doing, named by the crash, never "the instrument failed" or "a limit of the lab". Seen: virtual out of memory at second
20 of a 20/20/40 brownout at 215 rps, its column said "not judged: the instrument failed (2 problems)"."""

from types import SimpleNamespace

from loadlab.analysis import brownout_judge as judge
from loadlab.core import brownout_profile as brownout
from loadlab.summary.reading.injector_meta import InjectorMeta
from loadlab.summary.verdicts import brownout_figures as figures

PLAN = brownout.Schedule(rate=215, before_s=20, ms=2000, seconds=20, after_s=40)
LATE = judge.SwitchCheck(None, None, "its first brownout answer came in second 29, not 22: it switched on late")
WINDOW = {"scheduled": True}


def seconds(stalled_from: int) -> list[judge.Second]:
    """215 sent a second until stalled_from, then 100."""
    return [judge.Second(s, 215 if s < stalled_from else 100, 215, 0, 50.0) for s in range(80)]


def mode(crashed: dict | None) -> SimpleNamespace:
    return SimpleNamespace(
        crashed=crashed,
        raw=SimpleNamespace(injectors=[]),
        tables=SimpleNamespace(levels=[]),
        verdict=SimpleNamespace(set_aside={}),
    )


def test_what_stopped_with_a_dead_service_is_not_called_the_instruments_failure():
    died = mode({"role": "thread-service", "second": 20, "cause": "java.lang.OutOfMemoryError: Java heap space"})
    warmup = mode({"role": "thread-service", "second": -4, "cause": "killed"})
    at = figures._died_at(died)
    assert figures._instrument_problems(WINDOW, LATE, seconds(20), PLAN, died, at) == []
    assert (
        figures._died_words(died)
        == "not judged: the thread-service died out of memory at second 20 of the measured phase"
    )
    assert figures._died_words(warmup) == (
        "not judged: the thread-service died during the warm-up, 4 s before the measured phase"
    )


def test_a_stall_or_a_late_switch_before_the_death_is_still_the_instruments():
    died = mode({"role": "thread-service", "second": 40, "cause": "killed"})
    problems = figures._instrument_problems(WINDOW, LATE, seconds(25), PLAN, died, figures._died_at(died))
    assert problems[0] == LATE.problem
    assert (
        problems[1].startswith("the injectors fell behind their schedule from the brownout on") and len(problems) == 2
    )
    assert figures._died_words(died) == "not judged: the thread-service died at second 40 of the measured phase"


def test_a_living_service_keeps_every_instrument_problem():
    alive = mode(None)
    assert figures._died_at(alive) is None and figures._died_words(alive) is None
    assert len(figures._instrument_problems(WINDOW, LATE, seconds(20), PLAN, alive, None)) == 2


def test_a_load_the_in_flight_cap_stopped_is_named_with_its_cap():
    """The cap's record is raw.inflight_cap_stop's StopCapRecord, read by attribute (it was read by key and raised)."""
    capped = mode(None)
    cap = {"stop_inflight_cap": {"inflight": 5000, "max_inflight": 5000}}
    capped.raw.injectors = [SimpleNamespace(meta=InjectorMeta.parse(cap))]
    problems = figures._instrument_problems(WINDOW, None, seconds(80), PLAN, capped, None)
    assert problems == [
        "the injectors' in-flight cap stopped the load at 5000 requests in flight (cap 5000): a limit of the lab, "
        "not of the service"
    ]


def test_the_brownouts_baseline_is_the_first_level_only_when_it_kept_up_by_the_baselines_one_rule():
    """Issue 51 §3: the brownout took the first level's p50 as its baseline whatever that level showed, where the
    knee's baseline (analysis/baseline.py) refuses a level that broke. A BROWNOUT_BEFORE whose own errors were 3%
    (its OK answers still 97% of the rate, which the before-brownout rate check passes) gives no health limit: its
    p50 was read while requests failed, and recovery is not judged, with why."""
    from support.builders import level

    from loadlab.core.thresholds import Thresholds

    thresholds = Thresholds()
    kept_up = SimpleNamespace(tables=SimpleNamespace(levels=[level(0, 215, p50=201), level(1, 215, p50=2100)]))
    assert figures.before_brownout(kept_up, thresholds).p50_ms == 201
    broke = SimpleNamespace(tables=SimpleNamespace(levels=[level(0, 215, p50=150, ok_share=0.97, ko_share=0.03)]))
    baseline = figures.before_brownout(broke, thresholds)
    assert baseline.p50_ms is None and "level 1 (215 rps) broke: error ratio 3.0%" in (baseline.said or "")
    assert figures._p99_limit(broke, thresholds) is None
