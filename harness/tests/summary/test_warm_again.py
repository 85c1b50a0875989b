"""A warm-up that ends before the service has caught up is not a fixed-seconds warm-up the run lives with (issue 51,
section 2): the first level measured its backlog, so bench warms the service again for WARMUP_SECONDS and measures
the stairs again from their first level, REFINE=0 too; the knee stands on that pass, judged against its own baseline.
A second warm-up that still ends behind leaves the mode invalid, saying the service never caught up. Synthetic runs
with known answers (the default bench's failure on 2026-12-02: 1,021 requests in flight at 300 rps after 30 s)."""

from builders import run_params
from synthrun import START_EPOCH, LevelSpec, ModeSpec
from test_refine_summary import _plan, run_with

from loadlab.core import runplan
from loadlab.run.finepasses import describe

STAIRS = {"START_RPS": 300, "PEAK_RPS": 1200, "STEPS": 4, "WARMUP_SECONDS": 2}
RATES = runplan.levels(run_params(start_rps=300, peak_rps=1200, steps=4))  # 300, 600, 900, 1,200
CALM = ((101, 0.5), (104, 0.45), (107, 0.04), (110, 0.01))
SLOW = ((101, 0.5), (600, 0.45), (900, 0.04), (950, 0.01))
BEHIND = 1021


def cold(inflight=BEHIND) -> ModeSpec:
    """The coarse pass: its warm-up ended with `inflight` requests in flight; its first level served them late and
    fell behind, and the simulation stopped there."""
    return ModeSpec([LevelSpec(300, latency=SLOW, ok_share=0.6)], warmup_inflight=inflight)


def warm_again(first_bad=900, inflight=0) -> ModeSpec:
    """The stairs again after a second warm-up, unhealthy from first_bad."""
    levels = [LevelSpec(r, latency=SLOW if r >= first_bad else CALM) for r in RATES if r <= first_bad]
    return ModeSpec(levels, warmup_inflight=inflight, start_epoch=START_EPOCH + 1000)


def test_a_warm_up_that_ended_behind_is_warmed_again_and_the_stairs_measured_again(tmp_path):
    mode = run_with(tmp_path, cold(), REFINE=0, **STAIRS)
    assert mode["valid"] is False
    assert any("1021 requests were still in flight" in r for r in mode["invalid_reasons"]), mode["invalid_reasons"]
    step = _plan(tmp_path)
    assert step.rewarm and step.again and step.rates == RATES and step.warmup_rps == 300, step
    assert step.baseline_p50_ms is None  # the coarse one was measured on the backlog: the pass finds its own
    line = describe(step, 4, 30)
    assert line.startswith("warming up again: the warm-up ended before the service had caught up"), line
    assert "30 s more at 300.0 rps, then the stairs again from their first level" in line, line


def test_the_knee_stands_on_the_pass_that_began_warm_and_the_mode_says_so(tmp_path):
    mode = run_with(tmp_path, cold(), [warm_again(first_bad=900)], REFINE=0, **STAIRS)
    assert mode["valid"] is True, mode["invalid_reasons"]
    assert mode["knee_interval_rps"] == [600, 900] and mode["sustained_rps"] == 600, mode["refine"]
    assert mode["baseline_p50_ms"] == 101, mode["baseline_p50_ms"]
    (note,) = [n for n in mode["notes"] if n.startswith("the warm-up ended before the service had caught up")]
    assert "1021 requests in flight" in note and "measured again from their first level (refine-1)" in note, note
    assert note.endswith("the knee stands on that pass"), note


def test_a_second_warm_up_that_also_ended_behind_leaves_the_mode_invalid_saying_it_never_caught_up(tmp_path):
    mode = run_with(tmp_path, cold(), [warm_again(first_bad=300, inflight=800)], REFINE=0, **STAIRS)
    assert mode["valid"] is False
    (said,) = [r for r in mode["invalid_reasons"] if "never caught up" in r]
    assert "1021 requests were still in flight at the end of the first and 800 at the end of a second" in said, said
    assert "raise WARMUP_SECONDS or lower START_RPS" in said
    assert _plan(tmp_path).rates == []  # nothing more on the same evidence


def test_a_warm_up_that_caught_up_gets_no_second(tmp_path):
    mode = run_with(tmp_path, cold(inflight=3), REFINE=0, **STAIRS)
    assert not any("caught up" in r for r in mode["invalid_reasons"]), mode["invalid_reasons"]
    assert not _plan(tmp_path).rewarm


def test_a_ramp_is_not_measured_again_as_stairs(tmp_path):
    """Only stairs have a first level to measure again; a ramp (or a brownout's phases) keeps its verdict."""
    run_with(tmp_path, cold(), REFINE=0, PROFILE="ramp", **STAIRS)
    step = _plan(tmp_path)
    assert not step.rewarm and step.rates == [], step


def test_stairs_measured_again_that_cannot_be_used_leave_the_mode_invalid_saying_why(tmp_path):
    """The second warm-up's pass with its injector behind at every level is set aside whole: the backlog still voids
    the mode, and the reason says the pass measured again could not be used, and why."""
    behind = ModeSpec(
        [LevelSpec(r, latency=CALM, sent_share=0.8, ok_share=0.8) for r in RATES], start_epoch=START_EPOCH + 1000
    )
    mode = run_with(tmp_path, cold(), [behind], REFINE=0, **STAIRS)
    assert mode["valid"] is False
    (said,) = [r for r in mode["invalid_reasons"] if r.startswith("measuring began before the service had caught up")]
    assert "the stairs measured again after a second warm-up (refine-1) cannot be used" in said, said
    assert "injector fell behind" in said, said
    assert not any(n.startswith("the warm-up ended before") for n in mode["notes"])  # no claim it was warm
