"""The refined knee in summary.json, from synthetic runs with coarse levels and fine passes (known answers)."""

import json

import pytest
import synthrun
from conftest import summarised
from synthrun import START_EPOCH, LevelSpec, ModeSpec, stairs

from loadlab import report
from loadlab.analysis import refine
from loadlab.analysis.bracket import Bracket
from loadlab.summary.verdicts.records import RunSummary

# p50 400 ms: healthy against its own first level (limit 800 ms), not against a 201 ms baseline (limit 402 ms).
SLOW_BASELINE = ((400, 0.5), (420, 0.45), (450, 0.04), (460, 0.01))


def coarse(rates=(100, 200, 300, 400, 500), first_bad=400, **level):
    """Stairs that turn unhealthy (a slow tail) from first_bad on."""
    return ModeSpec(stairs(rates, first_bad, **level))


def fine(rates, first_bad=None, k=1, **level):
    """A fine pass, started k × 1,000 s after the coarse one, unhealthy from first_bad on (the early stop ends it
    there, as the simulation does)."""
    rates = [r for r in rates if first_bad is None or r <= first_bad]
    return ModeSpec(stairs(rates, first_bad, **level), start_epoch=START_EPOCH + 1000 * k)


def run_with(tmp_path, mode_spec, passes=(), pages=False, **params):
    """The platform mode's summary of a run with these passes; pages: the page drawn too (report.rebuild)."""
    return judged_run(tmp_path, mode_spec, passes, pages, **params)["modes"]["platform"]


def judged_run(tmp_path, mode_spec, passes=(), pages=False, **params):
    synthrun.write_params(tmp_path, modes=("platform",), **{"REFINE": 1, **params})
    synthrun.write_mode(tmp_path, "platform", mode_spec)
    for k, spec in enumerate(passes, start=1):
        synthrun.write_fine_pass(tmp_path, "platform", f"refine-{k}", spec)
    return report.rebuild(tmp_path).as_json() if pages else summarised(tmp_path)


def test_the_fine_pass_narrows_the_bracket_to_within_five_percent_and_the_next_confirms_it(tmp_path):
    rates = refine.fine_rates(Bracket(300, 400))
    assert rates == [300, 315, 330, 345, 360, 375, 390, 405]  # through 400, measured unhealthy once
    again = refine.fine_rates(Bracket(345, 360))
    assert again == [345, 362]  # 360 was measured unhealthy once: measured again (a 5% step reaches just beyond it)
    mode = run_with(tmp_path, coarse(), [fine(rates, first_bad=360), fine(again, first_bad=362, k=2)])
    assert mode["collapsed"] is True
    assert mode["sustained_rps"] == 345 and mode["knee_interval_rps"] == [345, 360]
    assert mode["p99_ms_at_sustained"] == 230
    assert mode["refine"]["localised"] is True and mode["refine"]["coarse_interval_rps"] == [300, 400]
    assert mode["refine"]["confirmed"] is True and mode["refine"]["not_reproduced"] is None
    used, confirming = mode["refine"]["passes"]
    assert used["used"] and used["rates"] == [300, 315, 330, 345, 360]
    assert [lv["healthy"] for lv in used["levels"]] == [True, True, True, True, False]
    assert used["interval_after_rps"] == [345, 360] and confirming["interval_after_rps"] == [345, 360]
    # the coarse levels stay as measured
    assert [lv["target_rps"] for lv in mode["levels"]] == [100, 200, 300, 400, 500]
    assert (tmp_path / "platform" / "refine-1" / "timeline.csv").is_file()


def test_a_knee_measured_unhealthy_once_is_not_localised(tmp_path):
    mode = run_with(tmp_path, coarse(), [fine([300, 315, 330, 345, 360], first_bad=360)])
    assert mode["knee_interval_rps"] == [345, 360] and mode["refine"]["localised"] is False
    assert mode["refine"]["not_refined"] == (
        "after 1 pass its first unhealthy rate, 360.0 rps, was measured unhealthy once only: the knee is not confirmed"
    )


def test_a_fine_pass_that_stopped_below_the_coarse_unhealthy_rate_did_not_confirm_it(tmp_path):
    """The issue's run as an older harness made it: the fine pass held every rate up to just below the coarse
    unhealthy one and stopped there, never measuring it again. No knee is claimed localised."""
    mode = run_with(tmp_path, coarse(), [fine([300, 315, 330, 345, 360, 375, 390])])
    assert mode["sustained_rps"] == 390 and mode["knee_interval_rps"] == [390, 400]
    assert (
        mode["refine"]["localised"] is False
        and "400.0 rps, was measured unhealthy once only" in (mode["refine"]["not_refined"])
    )


def test_a_fine_unhealthy_level_that_does_not_reproduce_falls_back_on_the_coarse_unhealthy_rate(tmp_path):
    # pass 1 finds 360 unhealthy (measured once); pass 2 holds it healthy: the bracket goes back to 400, the coarse
    # unhealthy rate above it, still measured once, and the transient is said
    mode = run_with(tmp_path, coarse(), [fine([300, 315, 330, 345, 360], first_bad=360), fine([345, 362], k=2)])
    assert mode["collapsed"] is True and mode["knee_interval_rps"] == [362, 400], mode["refine"]
    assert mode["refine"]["confirmed"] is False and mode["refine"]["localised"] is False
    assert mode["refine"]["not_reproduced"] is None
    (said,) = mode["refine"]["transients"]
    assert said.startswith(
        "the level at 360.0 rps was unhealthy (p99 950 ms is above the 402 ms limit) but healthy when measured again"
    )
    assert "after 2 passes the bracket is still 10% of its lower rate wide" == mode["refine"]["not_refined"]


def issue_25_coarse():
    """30 threads at 100 ms, stairs 150 → 3,000: virtual's second coarse level (557 rps, right after a 3.7× step
    from the first) has one GC pause's p99 (263 ms against a 204 ms limit); the coarse pass stops there."""
    pause = ((101, 0.5), (105, 0.45), (263, 0.05))
    calm = ((101, 0.5), (104, 0.45), (107, 0.04), (110, 0.01))
    return ModeSpec([LevelSpec(150, latency=calm), LevelSpec(557, latency=pause)])


def test_a_coarse_level_unhealthy_from_one_gc_pause_that_the_fine_pass_holds_healthy_is_no_knee(tmp_path):
    rates = refine.fine_rates(Bracket(150, 557))
    assert rates[0] == 150 and rates[-2] < 557 <= rates[-1]  # the fine pass runs through 557
    calm = ((101, 0.5), (104, 0.45), (107, 0.04), (110, 0.01))
    mode = run_with(tmp_path, issue_25_coarse(), [fine(rates, latency=calm)], pages=True)
    assert mode["collapsed"] is False and mode["knee_interval_rps"] is None
    assert mode["sustained_rps"] == rates[-1]  # the highest rate measured healthy: a lower bound
    assert mode["refine"]["localised"] is None and mode["refine"]["coarse_interval_rps"] == [150, 557]
    said = mode["refine"]["not_reproduced"]
    assert said.startswith(
        "the level at 557.0 rps was unhealthy (p99 263 ms is above the 202 ms limit) but healthy when measured again"
    )
    assert "right after a 3.7× step up from 150.0 rps: a level's first seconds after a large step" in said
    assert "did not reproduce" in said and f"lies above {rates[-1]:,.1f} rps, the highest rate measured healthy" in said
    assert mode["prediction_verdict"] != "agrees" and "never collapsed" in mode["prediction_check"]
    # the coarse levels stay as measured, the unhealthy one with its reason
    assert [lv["healthy"] for lv in mode["levels"]] == [True, False]
    page = (tmp_path / "index.html").read_text()
    assert "no knee confirmed" in page and "its coarse unhealthy level did not reproduce, no knee" in page


def test_a_coarse_level_the_fine_pass_finds_unhealthy_again_is_the_knee(tmp_path):
    rates = refine.fine_rates(Bracket(150, 557))
    mode = run_with(tmp_path, coarse((150, 557), first_bad=557), [fine(rates, first_bad=rates[-1])])
    assert mode["collapsed"] is True and mode["knee_interval_rps"] == [rates[-2], 557]
    assert mode["refine"]["confirmed"] is True and mode["refine"]["not_reproduced"] is None


def test_a_fine_pass_that_contradicts_the_coarse_one_leaves_the_coarse_bracket(tmp_path):
    # Judged against the coarse baseline (201 ms), a fine level at p50 400 ms is unhealthy: at a rate the coarse
    # pass measured healthy, so the service was not in the state the coarse pass measured.
    mode = run_with(tmp_path, coarse(), [fine([300, 315], latency=SLOW_BASELINE)])
    assert mode["sustained_rps"] == 300 and mode["knee_interval_rps"] == [300, 400]
    (contradicting,) = mode["refine"]["passes"]
    assert not contradicting["used"] and "300 rps unhealthy" in contradicting["why_not_used"]
    assert contradicting["levels"][0]["healthy"] is False
    assert mode["refine"]["localised"] is False
    assert "still 33%" in mode["refine"]["not_refined"]


def test_a_fine_pass_whose_injector_fell_behind_is_not_used(tmp_path):
    mode = run_with(tmp_path, coarse(), [fine([300, 315, 330], sent_share=0.8, ok_share=0.8)])
    assert mode["knee_interval_rps"] == [300, 400] and mode["valid"] is True
    (untrusted,) = mode["refine"]["passes"]
    assert not untrusted["used"] and "the injector fell behind" in untrusted["why_not_used"]


def test_a_fine_pass_is_judged_on_the_coarse_pass_s_lightest_probe(tmp_path):
    # The coarse pass's lightest level answered the probe in 202 ms: a fine pass at 235 ms is a rise of the
    # delay-service near the knee, even though its own first level (indices restart at 0) would have allowed it.
    mode = run_with(tmp_path / "rise", coarse(), [fine([300, 315, 330], probe_ms=235.0)])
    assert mode["knee_interval_rps"] == [300, 400] and mode["valid"] is True
    (untrusted,) = mode["refine"]["passes"]
    assert not untrusted["used"], untrusted
    assert "235 ms (median), more than 20 ms above its 202 ms at the lightest level" in untrusted["why_not_used"]
    # a slow machine's probe (221 ms from the lightest level on) with no rise is no saturation in a fine pass either
    slow = dict(probe_ms=221.0)
    mode = run_with(tmp_path / "slow", coarse(**slow), [fine([300, 315, 330, 345, 360], first_bad=360, **slow)])
    assert mode["refine"]["passes"][0]["used"] and mode["knee_interval_rps"] == [345, 360], mode["refine"]


def test_a_wide_bracket_takes_two_passes(tmp_path):
    first = refine.fine_rates(Bracket(100, 300))
    assert first == [100, 125, 150, 175, 200, 225, 250, 275, 300]  # 8 levels below 300: 25 rps steps, and 300
    second = refine.fine_rates(Bracket(200, 225))
    assert second == [200, 210, 220, 230]
    third = refine.fine_rates(Bracket(210, 220))
    assert third == [210, 220]
    mode = run_with(
        tmp_path,
        coarse((100, 300, 500), first_bad=300),
        [fine(first, first_bad=225), fine(second, first_bad=220, k=2), fine(third, first_bad=220, k=3)],
    )
    assert [p["interval_after_rps"] for p in mode["refine"]["passes"]] == [[200, 225], [210, 220], [210, 220]]
    assert mode["sustained_rps"] == 210 and mode["refine"]["localised"]


def test_a_mode_that_never_collapsed_keeps_the_peak_and_has_no_bracket(tmp_path):
    mode = run_with(tmp_path, coarse(first_bad=None))
    assert (mode["sustained_rps"], mode["collapsed"], mode["knee_interval_rps"]) == (500, False, None)
    assert mode["refine"]["not_refined"] is None


def test_refine_0_says_the_knee_is_on_the_coarse_levels(tmp_path):
    mode = run_with(tmp_path, coarse(), REFINE=0)
    assert mode["knee_interval_rps"] == [300, 400]
    assert mode["refine"]["not_refined"].startswith("REFINE=0")


def test_bench_s_reason_for_not_refining_is_shown(tmp_path):
    synthrun.write_params(tmp_path, modes=("platform",), REFINE=1)
    doc = json.loads((tmp_path / "params.json").read_text())
    doc["refine_skipped"] = {"platform": "the service still had 12 requests in flight after 60 s"}
    (tmp_path / "params.json").write_text(json.dumps(doc))
    synthrun.write_mode(tmp_path, "platform", coarse())
    mode = summarised(tmp_path)["modes"]["platform"]
    assert mode["refine"]["not_refined"] == "the service still had 12 requests in flight after 60 s"


def test_the_fine_levels_join_the_cpu_fit(tmp_path):
    cpu = dict(thread_cpu=lambda rate: rate / 10, delay_cpu=0.0, injector_cpu=0.0)  # 1 ms a request, nothing fixed
    spec = ModeSpec(stairs((100, 200, 300, 400), 400, **cpu))
    rates = [300, 315, 330, 345, 360]
    fine_spec = ModeSpec(stairs(rates, 360, **cpu), start_epoch=START_EPOCH + 1000)
    mode = run_with(tmp_path, spec, [fine_spec])
    ceiling = mode["cpu_ceiling"]
    assert ceiling["levels"] == 3 + 4  # coarse 100..300 and fine 300..345
    assert ceiling["rps"] == pytest.approx(2000, rel=0.01)  # 2 cores / 1 ms
    assert ceiling["r2_min"] == pytest.approx(1.0, abs=1e-3)


def test_the_page_shows_the_bracket_and_the_fine_pass(tmp_path):
    run_with(tmp_path, coarse(), [fine([300, 315, 330, 345, 360], first_bad=360)], pages=True)
    html = (tmp_path / "index.html").read_text()
    assert "345 – 360" in html and "refine-1" in html


def _plan(run_dir, folder="platform"):
    from loadlab.summary.judge import fine_plan

    return fine_plan.next_fine_pass(run_dir, folder, json.loads((run_dir / "params.json").read_text()))


def test_bench_is_told_the_next_pass_from_the_raw_files_so_far(tmp_path):
    run_with(tmp_path, coarse())
    step = _plan(tmp_path)
    assert step.rates == [300, 315, 330, 345, 360, 375, 390, 405] and step.baseline_p50_ms == 201
    assert step.warmup_rps == 150  # half the first rate: headroom for a new Gatling JVM's compiler
    assert step.bracket == Bracket(300, 400) and step.reason is None
    synthrun.write_fine_pass(tmp_path, "platform", "refine-1", fine(step.rates, first_bad=360))
    again = _plan(tmp_path)  # narrow, but 360 was measured unhealthy once
    assert again.rates == [345, 362] and again.bracket == Bracket(345, 360)
    synthrun.write_fine_pass(tmp_path, "platform", "refine-2", fine(again.rates, first_bad=362, k=2))
    done = _plan(tmp_path)
    assert done.rates == [] and done.reason is None and done.bracket == Bracket(345, 360, confirmed=True)


def test_no_pass_for_a_mode_that_did_not_collapse_or_cannot_be_trusted(tmp_path):
    run_with(tmp_path / "held", coarse(first_bad=None))
    assert _plan(tmp_path / "held").rates == []
    run_with(tmp_path / "starved", coarse(sent_share=0.8, ok_share=0.8))
    step = _plan(tmp_path / "starved")
    # every level set aside: no trusted rate to start a fine pass from, and the reason names what was saturated
    assert step.rates == [] and step.reason.startswith("the coarse pass cannot be trusted (the injector fell behind")
    assert "; no level measured on levels that can be trusted" in step.reason


def test_stairs_unhealthy_from_their_first_level_are_measured_again_once(tmp_path):
    """A service still warming up at the warm-up's end reads unhealthy at rates it holds once warm: no coarse level
    healthy is measured again from the first level before any knee is placed below it."""
    run_with(tmp_path, coarse(first_bad=100))
    step = _plan(tmp_path)
    assert step.again and step.bracket == Bracket(0, 100) and step.rates[0] == 100
    synthrun.write_fine_pass(tmp_path, "platform", "refine-1", fine(step.rates, first_bad=100))
    done = _plan(tmp_path)  # unhealthy again: the knee lies below the first level, confirmed
    assert done.rates == [] and "first level was already unhealthy" in done.reason


def test_a_first_level_that_was_only_cold_does_not_end_the_mode_at_zero(tmp_path):
    run_with(tmp_path, coarse(first_bad=100))
    step = _plan(tmp_path)
    synthrun.write_fine_pass(tmp_path, "platform", "refine-1", fine(step.rates, first_bad=400))
    mode = run_with(tmp_path, coarse(first_bad=100), passes=[fine(step.rates, first_bad=400)])
    assert mode["sustained_rps"] == 300 and mode["knee_interval_rps"] == [300, 400]
    assert _plan(tmp_path).bracket == Bracket(300, 400)


def test_a_mode_in_a_repetition_is_planned_in_its_own_folder(tmp_path):
    synthrun.write_params(tmp_path, modes=("platform",), REFINE=1, REPEAT=2, completed=[])
    synthrun.write_mode(tmp_path / "rep-2", "platform", coarse())
    assert _plan(tmp_path, "rep-2/platform").rates[0] == 300


def test_the_console_table_shows_the_bracket_and_the_prediction(tmp_path, capsys):
    from loadlab.run import console

    passes = [fine([300, 315, 330, 345, 360], first_bad=360), fine([345, 362], first_bad=362, k=2)]
    result = judged_run(tmp_path, coarse(), passes)
    console.table(RunSummary.from_mapping(result), tmp_path)
    out = capsys.readouterr().out
    header, row = out.strip().splitlines()[1:3]
    assert "knee between" in header and "predicted rps" in header
    assert row.split()[:6] == ["platform", "345", "345–360", "995", "(976–995,", "little)"]


def test_an_apps_virtual_mode_is_refined_before_its_flight_recording_exists(tmp_path):
    """The app's recording is read after its JVM stops, after every pass: bench's look at the coarse pass must not
    call the mode untrusted for its absence (the final verdict still does when it never comes)."""
    synthrun.write_params(tmp_path, modes=("virtual",), REFINE=1, APP="/opt/apps/orders.jar", completed=[])
    synthrun.write_mode(tmp_path, "virtual", coarse())
    step = _plan(tmp_path, "virtual")
    assert step.reason is None and step.rates[0] == 300, step
