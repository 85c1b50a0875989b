"""The health rule exists once in meaning: health.py gives the shared fixture's verdicts (gatling's
HealthRuleAgreementTest runs the same file through the simulation's early stop)."""

import json
from pathlib import Path

import pytest

from loadlab.analysis import health, hlog
from loadlab.analysis.levels import Level
from loadlab.core.thresholds import Thresholds

FIXTURE = json.loads((Path(__file__).parents[1] / "data" / "health_cases.json").read_text())


def test_the_fixture_thresholds_are_the_defaults():
    assert Thresholds().as_dict() == FIXTURE["thresholds"]


@pytest.mark.parametrize("case", FIXTURE["cases"], ids=lambda c: c["name"])
def test_the_knee_module_gives_the_shared_verdict(case):
    histogram = hlog.new_histogram()
    for value in case["ok_latencies_ms"]:
        histogram.record_value(value)
    level = Level(
        index=1,
        target_rps=case["target_rps"],
        seconds=case["seconds"],
        sent=case["ok"] + case["ko"],
        ok=case["ok"],
        ko=case["ko"],
        latency=hlog.stats(histogram),
        previous_target_rps=case.get("previous_target_rps"),
        histogram=histogram,
    )
    thresholds = Thresholds()
    baseline = case["baseline_p50_ms"]
    healthy, reasons = health.level_health(level, thresholds, thresholds.p99_limit_ms(baseline), baseline)
    assert healthy == case["healthy"], reasons
    assert case.get("tail_judged_by", health.tail_judged_by(level)) == health.tail_judged_by(level)


def test_the_tail_rule_is_the_fixtures():
    """The simulation's HealthRule holds its constants to the same entry (HealthRuleAgreementTest)."""
    rule = FIXTURE["tail_rule"]
    assert (health.TAIL_SHARE, health.RESOLVES_P99, health.TAIL_ALPHA) == (
        rule["share"],
        rule["resolves_p99"],
        rule["alpha"],
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
