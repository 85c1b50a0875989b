"""Real raw files of a queue that grew through levels read healthy by their median: the completions rule.

data/fanout_completions: `make bench SCENARIO=fanout MODES='platform virtual reactive' DELAY_DIST=lognormal
DELAY_MS=400 DELAY_P99_MS=3200 SERVICE_CPUS=1 STEP_SECONDS=8 WARMUP_SECONDS=30 FANOUT=4 START_RPS=50 PEAK_RPS=450
STEPS=5` (run 20261201-194118 on this machine, quiet, docs/studies/fanout.md), its platform and virtual columns (the
reactive one is left out, and params.json names the two kept). Each request waits for the slowest of four calls
whose p99 is 3.2 s: 200 Tomcat threads over the slowest call's 1.24 s mean hold about 161 requests a second. The
fine passes climbing from 150 rps read 187.5 healthy by every latency limit: its median, 1.8 s, had not yet doubled
in 8 s while its threads started 165 requests a second and Tomcat's queue held 178 (the wait profile at the time).
The simulation's and the samplers' files as written; the flight recording, the wait agent's stacks, the page and
Gatling's reports are left out."""

import pytest
from conftest import summarised_copy

from loadlab.run import console
from loadlab.summary.verdicts.records import RunSummary


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return summarised_copy(tmp_path_factory.mktemp("runs"), "fanout_completions")


def test_a_level_answered_late_is_unhealthy_by_what_it_completed_and_the_knee_meets_littles_law(run):
    _, summary = run
    platform = summary["modes"]["platform"]
    climb = platform["refine"]["passes"][0]
    by_rate = {lv["target_rps"]: lv for lv in climb["levels"]}
    late = by_rate[187.5]
    assert not late["healthy"]
    assert [r for r in late["unhealthy_reasons"] if r.startswith("it completed ")] == late["unhealthy_reasons"]
    assert by_rate[175]["healthy"] and by_rate[162.5]["healthy"]
    assert platform["knee_interval_rps"] == [175, 187.5]
    assert (platform["predicted_by"], platform["prediction_verdict"]) == ("little", "agrees")


def test_a_ratio_bound_by_virtual_holding_the_top_is_said_as_far_as_platforms_bracket_carries_it(run, capsys):
    path, summary = run
    # the point would divide by platform's last healthy level (450 / 175 = 2.57); the data carry 450 / 187.5 only,
    # and that bound is the value summary.json gives
    assert (summary["virtual_over_platform"], summary["virtual_over_platform_interval"]) == (2.4, [2.4, None])
    console.table(RunSummary.from_mapping(summary), path)
    out = capsys.readouterr().out
    assert "virtual / platform sustained throughput: ≥ 2.40×" in out and "2.57" not in out


def test_a_model_far_above_the_run_is_no_prediction_and_no_verdict(run):
    _, summary = run
    platform = summary["modes"]["platform"]
    beyond = {p["predicted_by"] for p in platform["predictions"] if p["beyond_run"]}
    assert {"connections", "threads"} <= beyond  # 8,192 connections or 16,284 threads over a 1.24 s hold
    assert platform["predicted_by"] not in beyond
