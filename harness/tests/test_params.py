"""Bad parameters stop `make` with one line naming the value and what is allowed, before anything starts."""
import pytest
import synthrun
from conftest import make
from synthrun import LevelSpec, ModeSpec

from loadlab import params


@pytest.mark.parametrize("env, expected", [
    ({"DELAY_MS": "abc"}, "DELAY_MS='abc' is not a whole number; allowed: 1..60000"),
    ({"DELAY_MS": "0"}, "DELAY_MS=0 is out of range; allowed: 1..60000"),
    ({"MODES": "platform turbo"}, "MODES='platform turbo' is not allowed"),
    ({"MODES": "virtual virtual"}, "MODES='virtual virtual' is not allowed"),
    ({"TARGET": "gcp"}, "TARGET='gcp' is not allowed; allowed: local | netns | aws"),
    ({"PROFILE": "spike"}, "PROFILE='spike' is not allowed; allowed: stairs | ramp"),
    ({"START_RPS": "500", "PEAK_RPS": "100"}, "PEAK_RPS=100 is below START_RPS=500"),
    ({"INJECTORS": "17"}, "INJECTORS=17 is out of range; allowed: 1..16"),
    ({"STEP_SECONDS": "1"}, "STEP_SECONDS=1 is out of range; allowed: 2..3600"),
])
def test_each_bad_value_is_named_with_its_allowed_range(env, expected):
    with pytest.raises(params.ParamError) as e:
        params.parse(env)
    assert expected in str(e.value)
    assert len(str(e.value).splitlines()) == 1


def test_defaults_are_valid_and_levels_span_start_to_peak_inclusive():
    values = params.parse({})
    assert values["MODES"] == ["platform", "virtual"]
    assert values["DELAY_MS"] == 200 and values["PLATFORM_THREADS"] == 200
    lv = params.levels(values)
    assert len(lv) == values["STEPS"] and lv[0] == values["START_RPS"] and lv[-1] == values["PEAK_RPS"]


def test_make_bench_with_a_bad_value_stops_before_anything_starts(repo, tmp_path):
    r = make("bench", env={"DELAY_MS": "-5", "RESULTS_DIR": str(tmp_path / "results")}, timeout=60)
    assert r.returncode != 0
    assert "loadlab: DELAY_MS=-5 is out of range; allowed: 1..60000" in r.stderr
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
    results = tmp_path / "results"
    r = make("report", *run_arg, env={"RESULTS_DIR": str(results)}, timeout=120)
    assert r.returncode == 2 and f"loadlab: RUN='{results}/latest' is not a run folder" in r.stderr, r.stderr
    run = results / "20261121-130501"
    synthrun.write_params(run)
    synthrun.write_mode(run, "platform", ModeSpec([LevelSpec(100), LevelSpec(200)]))
    (results / "latest").symlink_to(run.name)
    r = make("report", *run_arg, env={"RESULTS_DIR": str(results)}, timeout=120)
    assert r.returncode == 0, r.stderr
    assert (run / "summary.json").is_file() and (run / "index.html").is_file()
