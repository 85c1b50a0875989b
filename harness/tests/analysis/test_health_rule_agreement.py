"""The health rule exists once in meaning: health.py gives the shared fixture's verdicts (gatling's
HealthRuleAgreementTest runs the same file through the simulation's early stop)."""

import json
from dataclasses import replace
from pathlib import Path

import pytest

from loadlab.analysis import health, hlog, knee
from loadlab.analysis.levels import Level
from loadlab.core.thresholds import Thresholds

FIXTURE = json.loads((Path(__file__).parents[1] / "data" / "health_cases.json").read_text())


def test_the_fixture_thresholds_are_the_defaults():
    assert Thresholds().as_dict() == FIXTURE["thresholds"]


@pytest.mark.parametrize("case", FIXTURE["cases"], ids=lambda c: c["name"])
def test_the_knee_module_gives_the_shared_verdict(case):
    level = _level(case, 1, [(value, 1) for value in case["ok_latencies_ms"]])
    thresholds = replace(Thresholds(), p99_slack_ms=case.get("p99_slack_ms", Thresholds().p99_slack_ms))
    baseline = case["baseline_p50_ms"]
    healthy, reasons = health.level_health(level, thresholds, thresholds.p99_limit_ms(baseline), baseline)
    assert healthy == case["healthy"], reasons
    assert case.get("tail_judged_by", health.tail_judged_by(level)) == health.tail_judged_by(level)


def test_the_tail_rule_is_the_fixtures():
    """The simulation's HealthRule holds its constants to the same entry (HealthRuleAgreementTest)."""
    rule = FIXTURE["tail_rule"]
    assert (health.TAIL_SHARE, health.RESOLVES_P99, health.TAIL_ALPHA, health.MEDIAN_SHARE) == (
        rule["share"],
        rule["resolves_p99"],
        rule["alpha"],
        rule["median_share"],
    )


def test_a_count_judged_level_says_how_many_were_past_the_limit_and_how_likely_that_was():
    """What the page and the console show for a short level past the limit: the count, the limit and p."""
    histogram = hlog.new_histogram()
    for value in [110] * 56 + [240] * 4:
        histogram.record_value(value)
    level = Level(1, 30, 2, 60, 60, 0, hlog.stats(histogram), histogram=histogram)
    healthy, reasons = health.level_health(level, Thresholds(), 224.0, 112)
    assert not healthy
    assert reasons == ["4 of 60 requests above the 224 ms limit: more than a healthy 1% tail allows (p = 0.0031)"]


def _level(spec: dict, index: int, latencies: list) -> Level:
    """A fixture's level: its counts and its successful latencies, [ms, count] pairs, in its merged histogram."""
    histogram = hlog.new_histogram()
    for value, count in latencies:
        histogram.record_value(value, count)
    return Level(
        position=index,
        target_rps=spec["target_rps"],
        seconds=spec["seconds"],
        sent=spec["ok"] + spec["ko"],
        ok=spec["ok"],
        ko=spec["ko"],
        latency=hlog.stats(histogram),
        previous_target_rps=spec.get("previous_target_rps"),
        settle_s=spec.get("settle_s", 0),
        histogram=histogram,
    )


def _stair_levels(stairs: dict) -> list[Level]:
    return [_level(spec, i, spec["ok_latencies_ms"]) for i, spec in enumerate(stairs["levels"])]


@pytest.mark.parametrize("stairs", FIXTURE["stairs"], ids=lambda s: s["name"])
def test_a_pass_is_judged_as_the_early_stop_judges_it(stairs):
    """Whole passes both sides run (HealthRuleStairsTest: the early stop ends the pass at the first unhealthy level
    the analysis finds, and nowhere else): the knee is not placed a stair early by one slow answer, and a first level
    that broke does not lift every later limit."""
    verdict = knee.judge(_stair_levels(stairs), Thresholds(), first_may_not_reproduce=True)
    assert [healthy for healthy, _ in verdict.health] == stairs["healthy"], verdict.health
    assert (verdict.baseline_p50_ms, verdict.baseline.position) == (
        stairs["baseline_p50_ms"],
        stairs["baseline_position"],
    )
    assert verdict.first_unhealthy == stairs["first_unhealthy"]


def test_a_pass_of_short_levels_holds_the_top_of_its_stairs_despite_one_slow_answer():
    """What the user met: 2 s levels of 10 to 60 rps, one answer at 1,014 ms at 30 and at 40 rps. The knee was placed
    at 30 rps; the pass held 60."""
    verdict = knee.judge(_stair_levels(FIXTURE["stairs"][0]), Thresholds(), first_may_not_reproduce=True)
    assert (verdict.collapsed, verdict.sustained_rps) == (False, 60)
    assert verdict.baseline.said == "level 1 (10 rps)"


def test_the_baseline_says_which_level_gave_it_and_why_not_the_first():
    verdict = knee.judge(_stair_levels(FIXTURE["stairs"][1]), Thresholds(), first_may_not_reproduce=True)
    assert verdict.baseline.said == (
        "level 2 (20 rps) (level 1 (10 rps) broke: error ratio 20.0% is above 1.0% (4 errors))"
    )
    assert verdict.p99_limit_ms == 220
