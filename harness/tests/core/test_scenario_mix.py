"""SCENARIO as one scenario (as always) or a weighted mix of the thread-service's workloads, sent as the kinds of one
mix: refused in one line before anything starts, resolved to the very requests each scenario sends alone."""

import base64
import json
from pathlib import Path

import pytest
from bench_run import bench_run
from builders import run_params

from loadlab.core import params, scenario_mix
from loadlab.core.param_limits import SCENARIOS

PATHS = Path(__file__).resolve().parents[1] / "data" / "mix" / "scenario_paths.json"


@pytest.mark.parametrize("single", SCENARIOS)
def test_a_single_scenario_is_kept_as_typed_and_is_no_mix(single):
    env = {"SCENARIO": single, "CPU_MS": "5"}
    assert params.parse(env).scenario == single
    assert scenario_mix.kinds(single) == (single,) and not scenario_mix.is_mix(single)


def test_a_mix_is_its_kinds_with_their_shares():
    values = params.parse({"SCENARIO": "  http:70   db:20 cpu:10 ", "CPU_MS": "20"})
    assert values.scenario == "http:70 db:20 cpu:10"
    assert scenario_mix.kinds(values.scenario) == ("http", "db", "cpu")
    assert scenario_mix.fractions(values.scenario) == pytest.approx({"http": 0.7, "db": 0.2, "cpu": 0.1})
    assert scenario_mix.has(values, "db") and scenario_mix.has(values, "cpu")
    assert not scenario_mix.has(run_params(scenario="http:1 cpu:1"), "db")


@pytest.mark.parametrize(
    "env, expected",
    [
        ({"SCENARIO": "gpu"}, "SCENARIO='gpu' is not allowed; allowed: http | db | cpu | pinned | fanout, or a mix of"),
        ({"SCENARIO": "http:70 pinned:30"}, "SCENARIO='http:70 pinned:30' is not allowed ('pinned' cannot be a kind"),
        ({"SCENARIO": "http:70 db:0"}, "SCENARIO='http:70 db:0' is not allowed ('db:0' has a weight out of 1..1000)"),
        ({"SCENARIO": "http:0.5 db:1"}, "('http:0.5' is neither a scenario nor name:weight)"),
        ({"SCENARIO": "http:70 http:30"}, "('http' is named twice)"),
        ({"SCENARIO": "http:100"}, "SCENARIO='http:100' is not allowed (a mix of one kind)"),
        ({"SCENARIO": "http:70 grpc:30"}, "('grpc' cannot be a kind of a mix)"),
        ({"SCENARIO": "http db"}, "('http' is neither a scenario nor name:weight)"),
        ({"SCENARIO": "http:70 cpu:30"}, "CPU_MS=0 is out of range for SCENARIO='http:70 cpu:30'; allowed: 1..1000"),
        (
            {"SCENARIO": "http:70 db:30", "CPU_MS": "5"},
            "CPU_MS=5 is not allowed with SCENARIO='http:70 db:30': in a mix CPU_MS is the cpu kind's computation",
        ),
    ],
)
def test_a_bad_scenario_is_refused_in_one_line_naming_it_and_what_is_allowed(env, expected):
    with pytest.raises(params.ParamError) as e:
        params.parse(env)
    line = str(e.value)
    assert expected in line and "\n" not in line
    if "CPU_MS" not in expected:
        assert "allowed: http | db | cpu | pinned | fanout, or a mix of two or more name:weight words" in line
        assert "pinned and fanout do not mix" in line


def test_each_kind_is_the_request_its_scenario_sends_alone():
    for case in json.loads(PATHS.read_text())["cases"]:
        values = run_params(scenario=case["scenario"], delay_ms=case["delayMs"], cpu_ms=case["cpuMs"])
        assert (
            scenario_mix.endpoint(case["scenario"], case["delayMs"], case["cpuMs"], case.get("query", ""))
            == case["path"]
        )
        assert scenario_mix.kind_cpu_ms(case["scenario"], values) == case["cpuMs"]


def test_a_mix_resolves_to_a_mix_the_simulation_reads_with_cpu_ms_on_its_cpu_kind_only():
    values = run_params(scenario="http:70 db:20 cpu:10", delay_ms=200, cpu_ms=20)
    resolved = json.loads(base64.b64decode(scenario_mix.as_mix(values).property_value()))
    kinds = resolved["kinds"]
    assert [(k["name"], k["hundredths"], k["method"], k["path"], k["label"]) for k in kinds] == [
        ("http", 7000, "GET", "/forward?ms=200", "http"),
        ("db", 2000, "GET", "/db?ms=200", "db"),
        ("cpu", 1000, "GET", "/cpu?cpuMs=20", "cpu"),
    ]
    assert resolved["feeders"] == []


def _props(tmp_path, env):
    from loadlab.core.thresholds import Thresholds
    from loadlab.run.hosts import LocalHost
    from loadlab.run.simulation import COARSE, gatling_props
    from loadlab.run.topology import Topology

    values = params.parse({"RESULTS_DIR": str(tmp_path), **env})
    host = LocalHost("local", "127.0.0.1", work_root=str(tmp_path))
    run = bench_run(values, Topology(host, host, [host]), tmp_path)
    run.meta = {"thresholds": Thresholds().as_dict()}
    given = gatling_props(run, "platform", 0, COARSE, "/tmp/go", 900)
    return dict(p.removeprefix("-Dloadlab.").split("=", 1) for p in given)


def test_the_simulation_gets_the_mix_and_a_single_scenario_gets_none(tmp_path):
    from loadlab.core import database_use, timeouts
    from loadlab.run import scenario

    single = _props(tmp_path, {"SCENARIO": "db"})
    assert single["scenario"] == "db" and "mix" not in single
    mixed = _props(tmp_path, {"SCENARIO": "http:70 db:20 cpu:10", "CPU_MS": "20"})
    kinds = json.loads(base64.b64decode(mixed["mix"]))["kinds"]
    assert [k["name"] for k in kinds] == ["http", "db", "cpu"] and mixed["scenario"] == "http"
    # before any load, every kind's endpoint once; PostgreSQL because a kind is db
    assert scenario.smoke_paths("http:70 db:20 cpu:10") == ["/forward?ms=1", "/db?ms=1", "/cpu?cpuMs=1"]
    assert database_use.of_values(run_params(scenario="http:70 db:20 cpu:10")).needed
    assert not database_use.of_values(run_params(scenario="http:70 cpu:30")).needed
    with_db = run_params(scenario="cpu:1 db:1", db_pool=4, delay_ms=100, cpu_ms=5)
    assert scenario.thread_service_args(database_use.of_values(with_db), "h", timeouts.derive(with_db))
