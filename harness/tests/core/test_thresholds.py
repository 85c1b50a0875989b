"""The health rule's thresholds are defined once (core/thresholds.py) and the simulation has none of its own: what a run
records and passes to the simulation are those values, under the names the shared fixture gives them. Gatling's
HealthRuleAgreementTest holds the simulation to the same fixture (it requires exactly those properties and judges
with them) and MissingThresholdGatlingTest shows it refuses to start without one, so no Java source is read here."""

import json
from pathlib import Path

from bench_run import bench_run

from loadlab.core import params
from loadlab.core.thresholds import SIMULATION_NAMES, Thresholds
from loadlab.run.hosts import LocalHost
from loadlab.run.simulation import COARSE, gatling_props
from loadlab.run.topology import Topology

FIXTURE = json.loads((Path(__file__).parents[1] / "data" / "health_cases.json").read_text())


def test_the_shared_fixture_judges_with_the_thresholds():
    assert FIXTURE["thresholds"] == Thresholds().as_dict()


def test_the_shared_fixture_names_them_as_the_simulation_is_passed_them():
    assert FIXTURE["simulation_properties"] == Thresholds().simulation_properties()


def test_the_simulation_is_passed_every_threshold_under_its_own_name():
    props = Thresholds(ok_ratio=0.9, p99_slack_ms=50).simulation_properties()
    assert props == {
        "okRatio": 0.9,
        "maxErrorRatio": 0.01,
        "p99Factor": 2,
        "p99SlackMs": 50,
        "p50SlackMs": 100,
        "settleSeconds": 0,
    }


def test_params_json_round_trips():
    th = Thresholds(ok_ratio=0.9)
    assert Thresholds.from_mapping(json.loads(json.dumps(th.as_dict()))) == th


def _passed(tmp_path, thresholds: Thresholds) -> dict[str, float]:
    values = params.parse({"RESULTS_DIR": str(tmp_path)})
    host = LocalHost("local", "127.0.0.1", work_root=str(tmp_path))
    run = bench_run(values, Topology(host, host, [host]), tmp_path)
    run.meta = {"thresholds": thresholds.as_dict()}
    given = gatling_props(run, "platform", 0, COARSE, "/tmp/go", 900)
    props = dict(p.removeprefix("-Dloadlab.").split("=", 1) for p in given)
    return {name: float(props[name]) for name in SIMULATION_NAMES.values()}


def test_a_run_judges_and_stops_early_with_the_thresholds(tmp_path):
    """What bench records in params.json is what the simulation is given, every threshold of it: the one
    definition, not a copy (the simulation would refuse to start without one)."""
    assert _passed(tmp_path, Thresholds()) == {k: float(v) for k, v in FIXTURE["simulation_properties"].items()}
    assert _passed(tmp_path, Thresholds(ok_ratio=0.9))["okRatio"] == 0.9
