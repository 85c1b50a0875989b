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
    )
    thresholds = Thresholds()
    baseline = case["baseline_p50_ms"]
    healthy, reasons = health.level_health(level, thresholds, thresholds.p99_limit_ms(baseline), baseline)
    assert healthy == case["healthy"], reasons
