"""What the summary stage reads of a run's parameters (core/summary_inputs.py, core/asked.py): worked out once from
RunParams, the same figures the rules give from the whole record."""

from __future__ import annotations

from dataclasses import replace

from builders import run_params

from loadlab.core import brownout_profile, guards, params, runplan, summary_inputs
from loadlab.core.asked import Asked


def test_what_a_label_leaves_unsaid_is_the_runs_only_jdk_and_only_pool():
    one = Asked.of(run_params(jdks=(25,), platform_threads=(200,)))
    assert (one.jdk, one.pool) == (25, 200)
    several = Asked.of(run_params(jdks=(21, 25), platform_threads=(200, 1000)))
    assert (several.jdk, several.pool) == (None, None)
    before = Asked.of(params.from_json({}))  # a run from before JDKS and MAX_CONNECTIONS
    assert before.jdk is None and not before.max_connections_recorded


def test_the_rules_read_an_asked_as_they_read_the_parameters():
    values = params.parse({"MODES": "virtual-limited", "VIRTUAL_LIMIT": "40", "DOWNSTREAM_TIMEOUT_MS": "900"})
    meanings = {"status_503": "a 503", "status_504": "a 504"}
    asked = Asked.of(values)
    assert guards.kind_meanings(meanings, "virtual-limited", asked) == guards.kind_meanings(
        meanings, "virtual-limited", values
    )
    assert guards.virtual_limit(asked) == 40


def test_the_load_offered_is_the_stairs_and_the_brownouts_model():
    stairs = run_params(start_rps=100, peak_rps=400, steps=4)
    load = summary_inputs.of(stairs).load
    assert load.rates == tuple(runplan.levels(stairs)) and load.stairs and load.brownout is None
    brownout = params.parse({"PROFILE": "brownout", "PLATFORM_THREADS": "10", "DELAY_MS": "100", "BROWNOUT_MS": "1000"})
    plan = summary_inputs.of(brownout).load.brownout
    assert plan is not None and plan.schedule == brownout_profile.schedule(brownout)
    assert plan.hold_s is not None
    assert plan.model(plan.hold_s, 50, 10) == brownout_profile.model(brownout, 50, 10)


def test_a_distribution_file_gone_since_the_run_leaves_the_figures_it_gave_unsaid(tmp_path):
    gone = replace(params.parse({"PROFILE": "brownout"}), delay_dist=f"hgrm:{tmp_path / 'gone.hgrm'}")
    load = summary_inputs.of(gone).load
    assert load.brownout is not None and load.brownout.hold_s is None
