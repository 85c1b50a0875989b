"""Bad parameters stop `make` with one line naming the value and what is allowed, before anything starts."""

import json
import re

import pytest
import synthrun
from conftest import REPO, make
from synthrun import LevelSpec, ModeSpec

from loadlab.core import param_limits, params, runplan, unknown_params
from loadlab.core.run_params import pool_sizes


@pytest.mark.parametrize(
    "env, expected",
    [
        ({"DELAY_MS": "abc"}, "DELAY_MS='abc' is not a whole number; allowed: 1..60000"),
        ({"DELAY_MS": "0"}, "DELAY_MS=0 is out of range; allowed: 1..60000"),
        ({"MODES": "platform turbo"}, "MODES='platform turbo' is not allowed"),
        ({"MODES": "virtual virtual"}, "MODES='virtual virtual' is not allowed"),
        ({"TARGET": "gcp"}, "TARGET='gcp' is not allowed; allowed: local | netns | aws"),
        ({"PROFILE": "spike"}, "PROFILE='spike' is not allowed; allowed: stairs | ramp"),
        ({"START_RPS": "500", "PEAK_RPS": "100"}, "PEAK_RPS=100 is below START_RPS=500"),
        ({"INJECTORS": "17"}, "INJECTORS=17 is out of range; allowed: 1..16"),
        ({"STEP_SECONDS": "1"}, "STEP_SECONDS=1 is out of range; allowed: 2..3600"),
        ({"SCENARIO": "gpu"}, "SCENARIO='gpu' is not allowed; allowed: http | db | cpu | pinned"),
        ({"CPU_MS": "-1"}, "CPU_MS=-1 is out of range; allowed: 0..1000"),
        ({"CPU_MS": "2000"}, "CPU_MS=2000 is out of range; allowed: 0..1000"),
        ({"SCENARIO": "cpu"}, "CPU_MS=0 is out of range for SCENARIO=cpu; allowed: 1..1000"),
        ({"DB_POOL": "0"}, "DB_POOL=0 is out of range; allowed: 1..500"),
        ({"DB_POOL": "501"}, "DB_POOL=501 is out of range; allowed: 1..500"),
        (
            {"JDKS": "17 25"},
            "JDKS='17 25' is not allowed (17 is below 21, the first release with virtual threads); "
            "allowed: Java feature releases 21..27",
        ),
        ({"JDKS": "21 21"}, "JDKS='21 21' is not allowed (21 is given twice)"),
        ({"JDKS": "25.0.1"}, "JDKS='25.0.1' is not allowed ('25.0.1' is not a Java feature release number)"),
        ({"JDKS": "99"}, "JDKS='99' is not allowed (99 is not a known Java release)"),
        ({"REPEAT": "0"}, "REPEAT=0 is out of range; allowed: 1..20"),
        ({"REPEAT": "21"}, "REPEAT=21 is out of range; allowed: 1..20"),
        ({"REFINE": "2"}, "REFINE=2 is out of range; allowed: 0..1"),
        ({"REFINE": "yes"}, "REFINE='yes' is not a whole number; allowed: 0..1"),
        (
            {"PLATFORM_THREADS": "200 abc"},
            "PLATFORM_THREADS='200 abc' is not allowed ('abc' is not a whole number); allowed: one pool size or "
            "several, each 1..10000",
        ),
        ({"PLATFORM_THREADS": "200 200"}, "PLATFORM_THREADS='200 200' is not allowed (200 is given twice)"),
        ({"PLATFORM_THREADS": "0"}, "PLATFORM_THREADS='0' is not allowed (0 is out of range)"),
        ({"PLATFORM_THREADS": "10001"}, "PLATFORM_THREADS='10001' is not allowed (10001 is out of range)"),
        (
            {"PLATFORM_THREADS": "200 1000", "MODES": "virtual"},
            "PLATFORM_THREADS='200 1000' is a sweep of platform pools but MODES='virtual' runs no platform mode; "
            "allowed: one size, or platform in MODES",
        ),
        ({"MAX_CONNECTIONS": "0"}, "MAX_CONNECTIONS=0 is out of range; allowed: 1..100000"),
        ({"MAX_CONNECTIONS": "lots"}, "MAX_CONNECTIONS='lots' is not a whole number; allowed: 1..100000"),
        ({"THREADLOCAL_KB": "-1"}, "THREADLOCAL_KB=-1 is out of range; allowed: 0..1024"),
        ({"THREADLOCAL_KB": "64k"}, "THREADLOCAL_KB='64k' is not a whole number; allowed: 0..1024"),
    ],
)
def test_each_bad_value_is_named_with_its_allowed_range(env, expected):
    with pytest.raises(params.ParamError) as e:
        params.parse(env)
    assert expected in str(e.value)
    assert len(str(e.value).splitlines()) == 1


def test_defaults_are_valid_and_levels_span_start_to_peak_inclusive():
    values = params.parse({})
    assert values.modes == ("platform", "virtual")
    assert values.delay_ms == 200 and values.platform_threads == (200,)
    assert (values.max_connections, values.threadlocal_kb) == (8192, 0)
    lv = runplan.levels(values)
    assert len(lv) == values.steps and lv[0] == values.start_rps and lv[-1] == values.peak_rps


def test_scenario_parameters_parse_and_their_defaults_are_the_contracts():
    values = params.parse({})
    assert (values.scenario, values.cpu_ms, values.db_pool, values.jdks) == ("http", 0, 10, (25,))
    values = params.parse({"SCENARIO": "cpu", "CPU_MS": "20", "DB_POOL": "2", "JDKS": "21 25"})
    assert (values.scenario, values.cpu_ms, values.db_pool, values.jdks) == ("cpu", 20, 2, (21, 25))


def test_the_databases_connections_always_exceed_the_largest_pool():
    assert param_limits.db_max_connections(param_limits.DB_POOL_MAX) > param_limits.DB_POOL_MAX
    assert param_limits.db_max_connections(10) == 10 + param_limits.DB_CONNECTION_HEADROOM


def test_mode_labels_are_plain_with_one_jdk_and_carry_the_jdk_with_several():
    assert [r.label for r in runplan.mode_runs(["platform", "virtual"], [25])] == ["platform", "virtual"]
    runs = runplan.mode_runs(["platform", "virtual"], [21, 25])
    assert [r.label for r in runs] == ["platform-jdk21", "virtual-jdk21", "platform-jdk25", "virtual-jdk25"]
    assert (runs[1].mode, runs[1].jdk) == ("virtual", 21)
    assert [r.label for r in runplan.mode_runs(["virtual"], [21, 25])] == ["virtual-jdk21", "virtual-jdk25"]


def test_a_pool_sweep_runs_platform_once_per_size_beside_one_virtual_column():
    values = params.parse({"PLATFORM_THREADS": "200 1000 4000"})
    runs = runplan.mode_runs(values.modes, values.jdks, values.platform_threads)
    assert [r.label for r in runs] == ["platform-t200", "platform-t1000", "platform-t4000", "virtual"]
    assert [r.threads for r in runs] == [200, 1000, 4000, None]
    runs = runplan.mode_runs(["platform", "virtual"], [21, 25], (200, 1000))
    assert [r.label for r in runs][:3] == ["platform-t200-jdk21", "platform-t1000-jdk21", "virtual-jdk21"]


def test_one_pool_size_keeps_the_plain_label_and_is_recorded_as_a_number():
    values = params.parse({"PLATFORM_THREADS": "50"})
    runs = runplan.mode_runs(values.modes, values.jdks, values.platform_threads)
    assert [(r.label, r.threads) for r in runs] == [("platform", 50), ("virtual", None)]
    assert values.to_json()["PLATFORM_THREADS"] == 50
    assert params.parse({"PLATFORM_THREADS": "50 80"}).to_json()["PLATFORM_THREADS"] == [50, 80]
    assert pool_sizes(50) == (50,) and pool_sizes([50, 80]) == (50, 80)
    assert pool_sizes("50 80") == (50, 80) and pool_sizes(None) == ()


def test_pool_sizes_are_one_type_wherever_they_come_from_and_one_pool_is_asked_for_once():
    """params.parse, checked-params.json read back (JSON has no tuple), params.json's number or list: the same
    tuple; a single pool is the only size, never the first of a sweep."""
    for typed in ("50", "50 80"):
        parsed = params.parse({"PLATFORM_THREADS": typed})
        via_json = params.from_json(json.loads(json.dumps(parsed.to_json())))
        from_record = params.from_json(json.loads(json.dumps(parsed.as_recorded().to_json())))
        assert parsed.platform_threads == via_json.platform_threads == from_record.platform_threads
        assert all(type(v.platform_threads) is tuple for v in (parsed, via_json, from_record))
        assert via_json == parsed
    assert params.from_json({"PLATFORM_THREADS": 50}).single_pool == 50
    assert params.from_json({"PLATFORM_THREADS": [50, 80]}).single_pool is None
    sweep = runplan.mode_runs(["platform", "virtual"], [25], (50, 80))
    assert [runplan.service_pool(r, (50, 80)) for r in sweep] == [50, 80, 50]


def test_make_bench_with_a_bad_value_stops_before_anything_starts(repo, tmp_path):
    r = make("bench", env={"DELAY_MS": "-5", "RESULTS_DIR": str(tmp_path / "results")}, timeout=60)
    assert r.returncode != 0
    assert "loadlab: DELAY_MS=-5 is out of range; allowed: 1..60000" in r.stderr
    assert "building" not in r.stdout and not (tmp_path / "results").exists()


def test_make_bench_with_bad_jdks_stops_with_one_line_before_anything_starts(tmp_path):
    r = make("bench", env={"JDKS": "17 25", "RESULTS_DIR": str(tmp_path / "results")}, timeout=60)
    assert r.returncode == 2
    lines = [line for line in r.stderr.splitlines() if line.startswith("loadlab:")]
    assert lines == [lines[0]] and lines[0].startswith("loadlab: JDKS='17 25' is not allowed (17 is below 21")
    assert "building" not in r.stdout and not (tmp_path / "results").exists()


def test_make_help_lists_every_target_and_parameter_with_defaults():
    r = make("help", timeout=60)
    assert r.returncode == 0
    for target in ("help", "build", "up", "bench", "report", "down", "test", "clean"):
        assert f"  {target} " in r.stdout
    for p in params.PARAMS:
        assert p.name in r.stdout and repr(p.default) in r.stdout


@pytest.mark.parametrize("run", ["docs", "results/does-not-exist"])
def test_make_report_refuses_what_is_not_a_run_folder_and_writes_nothing(repo, run):
    r = make("report", f"RUN={run}", timeout=120)
    assert r.returncode == 2
    assert f"loadlab: RUN={run!r} is not a run folder" in r.stderr
    assert not (repo / "index.html").exists() and not (repo / "summary.json").exists()
    assert not (repo / "docs" / "index.html").exists()


@pytest.mark.parametrize("run_arg", [(), ("RUN=",)])
def test_make_report_without_run_rebuilds_the_latest_run(tmp_path, run_arg):
    """Both spellings resolve to results/latest (the refusal names it); the rebuild itself is the same code after
    that, so it is made once (a page drawn through make costs seconds)."""
    results = tmp_path / "results"
    r = make("report", *run_arg, env={"RESULTS_DIR": str(results)}, timeout=120)
    assert r.returncode == 2 and f"loadlab: RUN='{results}/latest' is not a run folder" in r.stderr, r.stderr
    if run_arg:
        return
    run = results / "20261121-130501"
    synthrun.write_params(run)
    synthrun.write_mode(run, "platform", ModeSpec([LevelSpec(100), LevelSpec(200)]))
    (results / "latest").symlink_to(run.name)
    r = make("report", *run_arg, env={"RESULTS_DIR": str(results)}, timeout=120)
    assert r.returncode == 0, r.stderr
    assert (run / "summary.json").is_file() and (run / "index.html").is_file()


def test_the_makefile_exports_exactly_the_harness_parameters():
    """The Makefile exports PARAMS to the harness (as environment variables): a parameter missing there would be
    silently ignored on the command line (`make bench NEW=1`), an extra one would reach the services unchecked."""
    text = (REPO / "Makefile").read_text()
    match = re.search(r"^PARAMS := ((?:.*\\\n)*.*)$", text, re.M)
    assert match, "the Makefile's PARAMS list"
    exported = match.group(1).replace("\\\n", " ").split()
    assert exported == [p.name for p in params.PARAMS]


def test_a_name_given_on_makes_command_line_that_the_lab_does_not_know_is_refused_naming_the_closest(tmp_path):
    """`make bench DELAY_DISTRIBUTON=lognormal` used to start a full constant-delay run: make takes any NAME=value."""
    r = make("bench", "DELAY_MSS=100", env={"RESULTS_DIR": str(tmp_path / "results")}, timeout=60)
    assert r.returncode == 2
    lines = [line for line in r.stderr.splitlines() if line.startswith("loadlab:")]
    assert lines == [
        "loadlab: DELAY_MSS='100' is not a parameter of the lab (did you mean DELAY_MS?); "
        "allowed: the parameters `make help` lists"
    ], r.stderr
    assert "building" not in r.stdout and not (tmp_path / "results").exists()


def test_on_the_command_line_any_unknown_name_counts_and_known_ones_of_other_verbs_pass():
    env = {unknown_params.COMMAND_LINE_VAR: "WARMUP RUN DELAY_MS", "WARMUP": "5", "RUN": "x", "DELAY_MS": "100"}
    assert unknown_params.unknown_names(env, params.BY_NAME) == [
        "WARMUP='5' is not a parameter of the lab (did you mean WARMUP_SECONDS?); allowed: the parameters "
        "`make help` lists"
    ]


@pytest.mark.parametrize("name", ["PATH", "HOME", "JAVA_HOME", "CI", "APP_ENV", "MAX_HEAP", "CPU_COUNT", "MAKEFLAGS"])
def test_other_tools_environment_variables_are_left_alone(name):
    assert unknown_params.unknown_names({name: "1"}, params.BY_NAME) == []


@pytest.mark.parametrize(
    "name, closest",
    [
        ("DELAY_M", "DELAY_MS"),
        ("PLATFORM_THREAD", "PLATFORM_THREADS"),
        ("DOWNSTREAM_ERROR", None),
        ("STEP_SECOND", "STEP_SECONDS"),
    ],
)
def test_an_environment_variable_that_looks_like_ours_but_is_not_is_refused(name, closest):
    (line,) = unknown_params.unknown_names({name: "1"}, params.BY_NAME)
    assert line.startswith(f"{name}='1' is not a parameter of the lab (did you mean ")
    assert closest is None or f"did you mean {closest}?" in line
