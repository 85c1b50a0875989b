"""A level counted by the seconds its requests were sent in is also held to what it completed in its own seconds
(health.completions_reason): a queue growing through it has every request answered, late, within a heavy tail's
latency limit of seconds, and only the answers a second show the service fell behind its rate."""

from dataclasses import replace

from builders import measured

from loadlab.analysis import health
from loadlab.core.thresholds import Thresholds


def level(target, completed_per_s, latencies, previous=None, seconds=7, lag=1):
    """A steady part of `seconds` (the level N = seconds + lag s long), its requests' latencies as [ms, count], the
    OK answers a second completed in its own seconds."""
    completed = round(completed_per_s * seconds)
    return measured(
        0, target, latencies, seconds, window_shift_s=lag, completed_ok=completed, completed_from_rps=previous
    )


def test_a_level_answered_late_is_unhealthy_by_what_it_completed_in_its_own_seconds():
    # as measured (fan-out, FANOUT=4): 187.5 rps offered, 165 a second started by 200 threads, every request answered
    queued = level(187.5, 165, [(1100, 700), (1800, 400), (4500, 212)], previous=175)
    healthy, reasons = health.level_health(queued, Thresholds(), p99_limit=9800, baseline_p50_ms=980)
    assert not healthy
    assert reasons == [
        "it completed 165.0 OK answers a second in its own seconds, below 95% of the 185.9 rps a service keeping "
        "up completes there: its requests were answered late (a queue grew)"
    ]
    keeping_up = level(187.5, 183, [(1100, 700), (1800, 400), (4500, 212)], previous=175)
    assert health.level_health(keeping_up, Thresholds(), p99_limit=9800, baseline_p50_ms=980) == (True, [])


def test_a_step_up_leaves_its_slow_answers_after_the_window_start_and_is_not_held_to_its_whole_rate():
    # 50 -> 150 rps of 2 s requests, judged from 1 s on: the window's first second still completes the 50 rps
    # level's answers, so a service keeping up completes 150 - 100 x (2 - 1) / 7 = 135.7 a second there
    step = level(150, 130, [(2000, 1050)], previous=50)
    assert round(health.expected_completions_rps(step), 1) == 135.7
    assert health.completions_reason(step, Thresholds()) is None
    assert health.completions_reason(level(150, 120, [(2000, 1050)], previous=50), Thresholds()) is not None
    # a step down, or none known, is held to its target
    assert health.expected_completions_rps(level(150, 150, [(2000, 1050)], previous=200)) == 150


def test_too_few_answers_to_resolve_5_percent_and_levels_counted_by_completion_are_not_judged_on_it():
    few = level(10, 0, [(1000, 70)])  # 70 expected answers: one at each edge is 3%
    assert 10 * 7 < health.COMPLETIONS_RESOLVE and health.completions_reason(few, Thresholds()) is None
    by_completion = replace(level(187.5, 100, [(150, 1312)]), completed_ok=None)
    assert health.completions_reason(by_completion, Thresholds()) is None


def test_an_injector_behind_its_schedule_is_never_read_as_the_services_queue():
    # the injectors sent 90% of 187.5 rps (the validity rule sets such a level aside, naming the injector), and the
    # service completed every one of them
    behind = replace(level(187.5, 168.75, [(1100, 1181)]), sent=round(0.9 * 187.5 * 7))
    assert health.completions_reason(behind, Thresholds()) is None
    assert health.completions_reason(level(187.5, 150, [(1100, 1181)]), Thresholds()) is not None
