"""The health rule's thresholds are defined once (thresholds.py): the simulation's own defaults, the shared fixture
both test suites judge with, and what a run records and passes to the simulation are those values."""

import json
import re
from pathlib import Path

from conftest import REPO

from loadlab.core import params, timeouts
from loadlab.core.thresholds import SIMULATION_NAMES, Thresholds
from loadlab.run.context import Run
from loadlab.run.hosts import LocalHost
from loadlab.run.simulation import COARSE, gatling_props
from loadlab.run.topology import Topology

LOAD_CONFIG = REPO / "gatling/src/test/java/loadlab/LoadConfig.java"


def java_defaults(source: Path = LOAD_CONFIG) -> dict[str, float]:
    """LoadConfig.DEFAULTS as written: `d.put("okRatio", "0.95");`."""
    found = re.findall(r'd\.put\("(\w+)", "([^"]*)"\)', source.read_text())
    return {name: float(value) for name, value in found if name in SIMULATION_NAMES.values()}


def test_the_simulations_defaults_are_the_thresholds():
    assert java_defaults() == {SIMULATION_NAMES[k]: float(v) for k, v in Thresholds().as_dict().items()}


def test_a_drifted_java_default_is_caught(tmp_path):
    drifted = tmp_path / "LoadConfig.java"
    drifted.write_text(LOAD_CONFIG.read_text().replace('d.put("okRatio", "0.95")', 'd.put("okRatio", "0.9")'))
    assert java_defaults(drifted)["okRatio"] == 0.9
    assert java_defaults(drifted) != {SIMULATION_NAMES[k]: float(v) for k, v in Thresholds().as_dict().items()}


def test_the_shared_fixture_judges_with_the_thresholds():
    fixture = json.loads((Path(__file__).parent / "data" / "health_cases.json").read_text())
    assert fixture["thresholds"] == Thresholds().as_dict()


def test_the_simulation_is_passed_every_threshold_under_its_own_name():
    props = Thresholds(ok_ratio=0.9, p99_slack_ms=50).simulation_properties()
    assert props == {"okRatio": 0.9, "maxErrorRatio": 0.01, "p99Factor": 2, "p99SlackMs": 50}
    assert set(props) <= set(re.findall(r'd\.put\("(\w+)"', LOAD_CONFIG.read_text()))


def test_params_json_round_trips():
    th = Thresholds(ok_ratio=0.9)
    assert Thresholds.from_mapping(json.loads(json.dumps(th.as_dict()))) == th


def test_a_run_judges_and_stops_early_with_the_thresholds(tmp_path):
    """What bench records in params.json is what the simulation is given: the one definition, not a copy."""
    values = params.parse({"RESULTS_DIR": str(tmp_path)})
    host = LocalHost("local", "127.0.0.1", work_root=str(tmp_path))
    run = Run(values, Topology(host, host, [host]), tmp_path, limits=timeouts.derive(values))
    run.meta = {"thresholds": Thresholds().as_dict()}
    props = dict(p.removeprefix("-Dloadlab.").split("=", 1) for p in gatling_props(run, "platform", 0, 0, COARSE))
    assert {name: float(props[name]) for name in SIMULATION_NAMES.values()} == java_defaults()
