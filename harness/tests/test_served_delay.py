"""The stand-in proven never the bottleneck: a level whose served delay (the delay-service's own record, per second)
departs from the configured distribution makes the mode invalid with that level named; one that kept to it does not.
The real run that starves the delay-service on purpose is test_e2e_repeat_sweep.py's second repetition."""

import json

import pytest
import synthrun
from conftest import summarised
from synthrun import START_EPOCH, LevelSpec, ModeSpec

from loadlab.analysis import served
from loadlab.core.downstream import Distribution

SPEC = ModeSpec([LevelSpec(100), LevelSpec(200), LevelSpec(300)])


def served_run(tmp_path, slow_level: int | None, slow_ms: int = 400, configured: dict | None = None):
    run = tmp_path / "20261127-050000"
    synthrun.write_params(run, modes=("platform",))
    synthrun.write_mode(run, "platform", SPEC)
    doc = json.loads((run / "params.json").read_text())
    dist = configured or Distribution("constant", 200).as_dict()
    doc["downstream"] = {"distribution": dist, "errors_pct": 0, "resets_pct": 0, "served_log": "raw/delay/served.hlog"}
    (run / "params.json").write_text(json.dumps(doc))
    lines = ['"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"']
    first = START_EPOCH + SPEC.warmup_seconds
    for level in range(len(SPEC.levels)):
        for s in range(SPEC.seconds_per_level):
            second = first + level * SPEC.seconds_per_level + s
            value = slow_ms if level == slow_level else 201
            lines.append(synthrun.java_line("served", second, [(value, 150), (200, 150)]))
    (run / "raw" / "delay").mkdir(parents=True)
    (run / "raw" / "delay" / "served.hlog").write_text("\n".join(lines) + "\n")
    return summarised(run)["modes"]["platform"]


def test_a_level_the_stand_in_served_slower_than_configured_makes_the_mode_invalid_naming_it(tmp_path):
    platform = served_run(tmp_path, slow_level=1)
    assert not platform["valid"]
    (reason,) = [r for r in platform["invalid_reasons"] if "delay-service served" in r]
    assert "p99 400 ms" in reason and "against 200 ms" in reason and "at level 1 (200 rps)" in reason, reason
    assert "the stand-in, not the service, was slow" in reason


def test_a_stand_in_that_kept_to_its_distribution_is_not_blamed(tmp_path):
    platform = served_run(tmp_path, slow_level=None)
    assert platform["valid"], platform["invalid_reasons"]


def test_a_tail_served_as_configured_is_not_a_departure(tmp_path):
    """A lognormal's p99 of 1,000 ms is what was asked for, not a slow stand-in."""
    lognormal = Distribution("lognormal", 200, p99_ms=1000).as_dict()
    platform = served_run(tmp_path, slow_level=1, slow_ms=1050, configured=lognormal)
    assert not [r for r in platform["invalid_reasons"] if "delay-service served" in r]


@pytest.mark.parametrize("p99, allowed", [(200, 220), (1000, 1100), (50, 70)])
def test_the_allowance_is_ten_percent_or_twenty_ms_whichever_is_larger(p99, allowed):
    assert served.allowed_p99_ms(Distribution("constant", p99)) == allowed
