"""The service's own calls to the stand-in (analysis/downstream_calls.py) are evidence about the service, never the
stand-in's blame: a level is set aside for the delay-service only on its own evidence (its served record, its probe),
and calls slow before any load while that evidence says on time are said in a note, nothing set aside."""

from dataclasses import replace

import builders
import synthrun
from conftest import summarised
from synthrun import LevelSpec, ModeSpec

from loadlab.analysis import set_aside, validity
from loadlab.analysis.downstream_calls import calls_note
from loadlab.analysis.levels import Level
from loadlab.analysis.validity import ValidityContext
from loadlab.core.thresholds import Thresholds

# The lab's default: a constant 100 ms downstream, judged on a shared machine.
CALLS = ValidityContext(delay_ms=100, shared_machine=True, downstream_mean_ms=100)
ON_TIME = dict(delay_probe_ms=103, delay_probe_failed=0.0)
SERVED_ON_TIME = {"answers": 200, "p50": 101, "p90": 103, "p99": 110, "p99.9": 112}


def level(index: int, target: int, p50: float, calls_ms: float | None, probe=ON_TIME, served=SERVED_ON_TIME) -> Level:
    """A quiet level (builders.level) whose service saw its calls take calls_ms, the stand-in's probe and record as
    given."""
    lv = builders.level(index, target, p50=p50, p99=round(p50 * 1.2), downstream_ms_mean=calls_ms, **probe)
    return replace(lv, served_ms=served)


def judged(levels: list[Level], ctx: ValidityContext = CALLS):
    verdict = set_aside.judge_trusted(levels, Thresholds(), ctx)
    return verdict, validity.validity(levels, verdict, ctx)


def test_calls_slow_before_any_load_while_the_stand_in_served_on_time_set_nothing_aside_and_are_said():
    # As seen: the service's calls 478-558 ms for a 100 ms delay, the stand-in's own record p90 103 ms, its probe
    # 103 ms. The old rule set every level aside for the stand-in on the calls alone; the wait was the service's.
    levels = [level(0, 20, 101, 478), level(1, 40, 102, 530), level(2, 60, 2400, 558)]
    verdict, reasons = judged(levels)
    assert verdict.set_aside == {} and verdict.collapsed and verdict.sustained_rps == 40
    assert not reasons
    note = calls_note(levels, CALLS)
    assert note == (
        "at level 1 (20 rps), before any load, the thread-service's calls to the delay-service took 478 ms on "
        "average, more than 2 × its configured mean of 100 ms + 20 ms (and at 2 later levels), while the "
        "delay-service served on time by its own record (p90 103 ms over 200 answers) and answered its probe in "
        "103 ms (median): no level is set aside for the stand-in on the service's view of its calls alone; a call's "
        "time holds the service's own waits (its threads waiting for a CPU to resume on, its client queueing the "
        "request), so this is evidence about the service"
    )


def test_a_stand_in_its_own_record_calls_late_is_set_aside_on_that_record_and_no_calls_note():
    levels = [level(0, 20, 778, 478), level(1, 40, 900, 530)]
    late = "the delay-service served its answers slower than configured: p90 700 ms …"
    levels[0] = replace(levels[0], served_late=late)
    verdict, _ = judged(levels)
    assert verdict.set_aside[0].startswith("the delay-service served its answers slower than configured")
    assert 1 not in verdict.set_aside  # level 2's own record was on time: its calls alone set nothing aside
    assert calls_note(levels, CALLS) is None


def test_a_slow_probe_is_the_stand_ins_own_evidence_and_still_sets_a_level_aside():
    slow_probe = dict(delay_probe_ms=400, delay_probe_failed=0.0)
    levels = [level(0, 20, 778, 478, probe=slow_probe, served=None), level(1, 40, 900, 530)]
    verdict, _ = judged(levels)
    assert verdict.set_aside[0].startswith("the delay-service was saturated: probed on its own host, it answered in")
    assert calls_note(levels, CALLS) is None


def test_without_any_record_of_the_stand_in_its_calls_alone_set_nothing_aside():
    silent = dict(delay_probe_ms=None, delay_probe_failed=None)
    levels = [level(0, 20, 101, 478, probe=silent, served=None), level(1, 40, 102, 530, probe=silent, served=None)]
    verdict, _ = judged(levels)
    assert verdict.set_aside == {}
    assert "the delay-service left no record of its own of the level (no served log, no probe)" in calls_note(
        levels, CALLS
    )


def test_calls_that_grew_slow_only_under_load_are_the_services_own_and_need_no_note():
    # virtual at its CPU knee: its threads waited for a carrier after the answer came; the stand-in was on time.
    levels = [level(0, 200, 101, 104), level(1, 400, 102, 108), level(2, 600, 900, 700)]
    verdict, _ = judged(levels)
    assert verdict.set_aside == {} and verdict.collapsed and verdict.sustained_rps == 400
    assert calls_note(levels, CALLS) is None


def test_calls_within_twice_the_mean_and_runs_without_a_configured_mean_are_not_judged():
    assert calls_note([level(0, 20, 215, 215), level(1, 40, 230, 230)], CALLS) is None
    slow = [level(0, 20, 778, 478), level(1, 40, 900, 530)]
    assert calls_note(slow, ValidityContext(delay_ms=100, shared_machine=True)) is None
    assert calls_note([level(0, 20, 778, None), level(1, 40, 900, None)], CALLS) is None


def test_the_summary_says_the_services_slow_calls_in_a_note_and_sets_no_level_aside(tmp_path):
    # DELAY_MS=200: calls of 700 ms are past 2 × 200 + 20 ms from the first level on; the stand-in's probe says
    # 202 ms at every level: the service's knee stands where its health says, nothing set aside for the stand-in.
    synthrun.write_params(tmp_path, modes=("platform",))
    spec = ModeSpec([LevelSpec(100 * (i + 1), downstream_ms=700.0) for i in range(3)])
    synthrun.write_mode(tmp_path, "platform", spec)
    platform = summarised(tmp_path)["modes"]["platform"]
    assert platform["set_aside_levels"] == [] and platform["valid"] is True, platform["invalid_reasons"]
    (note,) = [n for n in platform["notes"] if "calls to the delay-service" in n]
    assert note.startswith("at level 1 (100 rps), before any load, the thread-service's calls to the delay-service")
    assert "answered its probe in 202 ms (median)" in note and "evidence about the service" in note
