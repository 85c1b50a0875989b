"""A knee that did not reproduce is not a knee, and the stairs go on above it (issue 25): once a fine pass held the
coarse unhealthy rate healthy, the next pass climbs the coarse stairs on from the highest rate held; its first
unhealthy level opens a bracket the pass after it measures again, and a climb healthy to the top leaves a mode that
held the stairs. Synthetic runs with known answers: the issue's stairs, 150 → 3,000 rps in 8 levels, whose second
level (557 rps) was unhealthy from one GC pause."""

import synthrun
from builders import run_params
from synthrun import START_EPOCH, LevelSpec, ModeSpec
from test_refine_summary import _plan, issue_25_coarse, judged_run, run_with

from loadlab.analysis import refine
from loadlab.analysis.bracket import Bracket
from loadlab.core import runplan
from loadlab.run.finepasses import describe
from loadlab.summary.verdicts.records import RunSummary

STAIRS = {"START_RPS": 150, "PEAK_RPS": 3000, "STEPS": 8}
COARSE_RATES = runplan.levels(run_params(start_rps=150, peak_rps=3000, steps=8))  # 150, 557.1, 964.3, …, 3,000
CALM = ((101, 0.5), (104, 0.45), (107, 0.04), (110, 0.01))  # the coarse baseline's own shape: healthy
SLOW = ((101, 0.5), (600, 0.45), (900, 0.04), (950, 0.01))  # p99 far beyond the limit built on 101 ms


def held_fine_pass() -> ModeSpec:
    """Pass 1: the fine pass through 557 rps, every level healthy — 557 did not reproduce."""
    rates = refine.fine_rates(Bracket(150, 557))
    return ModeSpec([LevelSpec(r, latency=CALM) for r in rates], start_epoch=START_EPOCH + 1000)


def climb(rates, first_bad=None) -> ModeSpec:
    """Pass 2: the coarse stairs on, unhealthy from first_bad (the early stop ends the pass there)."""
    kept = [r for r in rates if first_bad is None or r <= first_bad]
    return ModeSpec(
        [LevelSpec(r, latency=SLOW if first_bad is not None and r >= first_bad else CALM) for r in kept],
        start_epoch=START_EPOCH + 2000,
    )


def test_after_a_knee_that_did_not_reproduce_the_next_pass_climbs_the_coarse_stairs_on(tmp_path):
    run_with(tmp_path, issue_25_coarse(), [held_fine_pass()], **STAIRS)
    step = _plan(tmp_path)
    above = [round(r, 3) for r in COARSE_RATES[2:]]  # every coarse rate above the fine pass's 558 rps
    assert step.climb and step.rates == above and step.bracket is None, step
    assert step.warmup_rps == round(above[0] / 2, 3) and step.baseline_p50_ms == 101
    line = describe(step, 4, 4)
    assert line.startswith("climbing on: the unhealthy level did not reproduce, so the stairs go on above it")
    assert "6 levels of 4 s from 964.3 to 3,000.0 rps, after 5 s at 482.1 rps" in line, line


def test_a_climb_that_meets_an_unhealthy_level_opens_a_bracket_the_next_pass_measures_again(tmp_path):
    rates = [round(r, 3) for r in COARSE_RATES[2:]]
    mode = run_with(tmp_path, issue_25_coarse(), [held_fine_pass(), climb(rates, first_bad=rates[3])], **STAIRS)
    bracket = [round(rates[2], 1), round(rates[3], 1)]  # summary.json's intervals are in tenths of an rps
    assert mode["collapsed"] is True and mode["knee_interval_rps"] == bracket, mode["refine"]
    assert mode["sustained_rps"] == bracket[0] and mode["refine"]["confirmed"] is False
    assert mode["refine"]["not_reproduced"] is None
    (said,) = mode["refine"]["transients"]
    assert said.startswith(
        "the level at 557.0 rps was unhealthy (p99 263 ms is above the 202 ms limit) but healthy when measured again"
    )
    held, climbed = mode["refine"]["passes"]
    assert held["used"] and held["interval_after_rps"] is None
    assert climbed["used"] and climbed["interval_before_rps"] is None
    assert climbed["interval_after_rps"] == bracket
    # the pass after the climb measures its unhealthy rate again, from the highest rate it held
    step = _plan(tmp_path)
    assert not step.climb and step.bracket == Bracket(rates[2], rates[3]) and step.rates[0] == rates[2]
    assert step.rates[-1] >= rates[3]


def test_a_climb_healthy_to_the_top_leaves_a_mode_that_held_the_stairs(tmp_path):
    rates = [round(r, 3) for r in COARSE_RATES[2:]]
    mode = run_with(tmp_path, issue_25_coarse(), [held_fine_pass(), climb(rates)], **STAIRS)
    assert mode["collapsed"] is False and mode["knee_interval_rps"] is None
    assert mode["sustained_rps"] == 3000 and mode["refine"]["not_reproduced"] is None
    assert len(mode["refine"]["transients"]) == 1
    assert "held 3,000 rps without collapsing" in mode["prediction_check"], mode["prediction_check"]
    assert _plan(tmp_path).rates == []  # nothing left to climb or refine


def test_the_disk_estimate_covers_a_climb_through_the_whole_stairs():
    """The preflight's upper bound on what fine passes write (levels × rate) holds the issue's case: a first pass
    through 557 rps, a climb of every coarse rate above it, a fine pass of the top bracket."""
    first = refine.fine_rates(Bracket(150, 557))
    top = refine.fine_rates(Bracket(COARSE_RATES[-2], COARSE_RATES[-1]))
    issue = len(first) * max(first) + (len(COARSE_RATES) - 2) * 3000 + len(top) * max(top)
    assert sum(n * rate for n, rate in refine.most_fine_levels(COARSE_RATES)) >= issue


def test_a_mode_that_never_collapsed_gets_no_pass(tmp_path):
    synthrun.write_params(tmp_path, modes=("platform",), REFINE=1, **STAIRS)
    synthrun.write_mode(tmp_path, "platform", ModeSpec([LevelSpec(r, latency=CALM) for r in COARSE_RATES]))
    assert _plan(tmp_path).rates == []


def test_the_console_says_which_unhealthy_level_was_not_the_knee(tmp_path, capsys):
    from loadlab.run import console

    rates = [round(r, 3) for r in COARSE_RATES[2:]]
    result = judged_run(tmp_path, issue_25_coarse(), [held_fine_pass(), climb(rates)], **STAIRS)
    console.table(RunSummary.from_mapping(result), tmp_path)
    out = capsys.readouterr().out
    said = "platform: the level at 557.0 rps was unhealthy (p99 263 ms is above the 202 ms limit) but healthy when"
    assert said in out, out
    assert "no knee:" not in out


def test_a_transient_is_quoted_with_the_reason_it_was_unhealthy_not_only_its_p99(tmp_path):
    """A level that fell short on throughput (its slowest requests never answered) can show a p99 under the limit:
    the sentence gives the rule's reason, as the level's own verdict does."""
    short = ModeSpec([LevelSpec(150, latency=CALM), LevelSpec(557, latency=CALM, ok_share=0.5)])
    mode = run_with(tmp_path, short, [held_fine_pass()], **STAIRS)
    (said,) = mode["refine"]["transients"]
    assert said.startswith("the level at 557.0 rps was unhealthy (OK throughput 278"), said
    assert "rps is below 95% of the" in said and "557 rps target" in said, said


def test_a_knee_below_the_first_level_is_never_called_the_knee_0_rps(tmp_path):
    """Every level unhealthy from the first: there is no healthy rate, so the limit's sentence says where the knee
    lies below, not 'the knee 0 rps'."""
    from test_refine_summary import coarse

    mode = run_with(tmp_path, coarse(first_bad=100))
    assert mode["knee_interval_rps"] == [None, 100], mode["knee_interval_rps"]  # no healthy side
    first = mode["limit_met_first"]
    assert "the knee 0 rps" not in first and "the knee (below 100 rps: the first level was already unhealthy)" in first


def test_a_climb_the_machine_could_not_drive_leaves_a_bound_and_a_fine_pass_looks_below_it(tmp_path):
    """A climb whose injector fell behind at every level is kept, not used as the service's collapse: the mode answers
    with a bound at the highest rate held, and the next pass looks between it and the climb's lowest rate set aside
    unhealthy (lower rates ask less of the machine), as below a coarse level set aside. That pass set aside again is
    not used, and nothing more is planned on the same evidence (a CI run on a slow machine: the sample app's climb to
    80 rps set aside, the mode left at 56 below a pool that breaks at 65)."""
    rates = [round(r, 3) for r in COARSE_RATES[2:]]
    behind = ModeSpec(
        [LevelSpec(r, latency=CALM, sent_share=0.8, ok_share=0.8) for r in rates], start_epoch=START_EPOCH + 2000
    )
    mode = run_with(tmp_path, issue_25_coarse(), [held_fine_pass(), behind], **STAIRS)
    held, climbed = mode["refine"]["passes"]
    assert held["used"] and climbed["used"], climbed
    assert mode["collapsed"] is False and mode["knee_interval_rps"] is None
    assert mode["knee_bound"] and "(a lower bound" in mode["knee_bound"], mode["knee_bound"]
    assert "injector fell behind" in mode["knee_bound"], mode["knee_bound"]
    step = _plan(tmp_path)
    assert step.set_aside and not step.climb and step.bracket == Bracket(mode["sustained_rps"], rates[0]), step
    assert describe(step, 4, 4).startswith("looking for the knee below the level set aside at 964.3 rps")
    below = ModeSpec(
        [LevelSpec(r, latency=CALM, sent_share=0.8, ok_share=0.8) for r in step.rates], start_epoch=START_EPOCH + 3000
    )
    mode = run_with(tmp_path, issue_25_coarse(), [held_fine_pass(), behind, below], **STAIRS)
    assert not mode["refine"]["passes"][-1]["used"], mode["refine"]["passes"][-1]
    assert "injector fell behind" in mode["refine"]["passes"][-1]["why_not_used"]
    assert mode["collapsed"] is False and mode["knee_bound"], mode
    again = _plan(tmp_path)
    assert again.rates == [] and again.reason.startswith("refine-3 was not used"), again
