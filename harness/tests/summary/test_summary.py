import csv
import json

import pytest
import synthrun
from conftest import summarised
from hdrh.histogram import HdrHistogram
from synthrun import HEALTHY, SLOW_TAIL, ModeSpec, stairs

from loadlab import report
from loadlab.analysis import hlog

TIMELINE_HEADER = "second,offered_rps,ok,ko,p50_ms,p95_ms,p99_ms,max_ms"
SERVER_HEADER = (
    "second,thread_cpu_pct,jvm_threads_live,virtual_threads_mounted,virtual_threads_queued,"
    "tomcat_threads_busy,inflight_requests,heap_used_mb,gc_pause_ms,downstream_ms_mean,delay_cpu_pct,"
    "injector_cpu_pct,thread_host_cpu_pct,delay_host_cpu_pct,injector_host_cpu_pct,delay_probe_ms,"
    "db_pool_active,db_pool_pending"
)
CONTRACT_MODE_KEYS = {
    "sustained_rps",
    "collapsed",
    "predicted_rps",
    "baseline_p50_ms",
    "p99_ms_at_sustained",
    "requests",
    "errors",
    "valid",
    "invalid_reasons",
    "levels",
    "pinned_virtual_threads",
    "stopped_early",
    "stop_reason",
    "missing",
}
LEVEL_KEYS = {
    "index",
    "target_rps",
    "offered_rps",
    "ok_rps",
    "error_ratio",
    "p50_ms",
    "p95_ms",
    "p99_ms",
    "max_ms",
    "seconds",
    "healthy",
    "unhealthy_reasons",
}


def platform_collapse():
    return ModeSpec(stairs(l3=dict(latency=SLOW_TAIL), l4=dict(latency=SLOW_TAIL, ok_share=0.5, ko_share=0.2)))


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def full_run(tmp_path_factory):
    run = tmp_path_factory.mktemp("results") / "20261121-130501"
    synthrun.write_params(run)
    synthrun.write_mode(run, "platform", platform_collapse())
    synthrun.write_mode(run, "virtual", ModeSpec(stairs(), injectors=2, pinned=3))
    return run, report.rebuild(run).as_json()


def test_summary_json_has_the_contract_shape(full_run):
    run, result = full_run
    assert json.loads((run / "summary.json").read_text()) == result
    assert {
        "run_id",
        "target",
        "params",
        "modes",
        "virtual_over_platform",
        "thresholds",
        "machine",
        "hosts",
        "missing_modes",
    } <= result.keys()
    assert result["run_id"] == "20261121-130501" and result["target"] == "local"
    assert result["params"]["DELAY_MS"] == 200
    for mode in ("platform", "virtual"):
        assert CONTRACT_MODE_KEYS <= result["modes"][mode].keys()
        for level in result["modes"][mode]["levels"]:
            assert LEVEL_KEYS <= level.keys()
    assert result["missing_modes"] == [] and result["machine"].startswith("Test CPU")


def test_verdict_of_each_mode(full_run):
    _, result = full_run
    platform, virtual = result["modes"]["platform"], result["modes"]["virtual"]
    assert (platform["sustained_rps"], platform["collapsed"], platform["baseline_p50_ms"]) == (300, True, 201)
    assert platform["predicted_rps"] == round(200 * 1000 / 201)
    assert platform["p99_ms_at_sustained"] == 230
    assert (virtual["sustained_rps"], virtual["collapsed"], virtual["predicted_rps"]) == (500, False, None)
    # virtual held the top: a lower bound, its value the end the brackets carry (500 over platform's first unhealthy)
    assert result["virtual_over_platform"] == round(500 / 400, 2)
    assert platform["valid"] and virtual["valid"], (platform["invalid_reasons"], virtual["invalid_reasons"])
    assert virtual["pinned_virtual_threads"] == 3 and platform["pinned_virtual_threads"] is None
    # requests and errors count completions in the measured phase, drain included, warm-up excluded
    assert platform["requests"] == 3 * (100 + 200 + 300 + 400 + 350) + 10
    assert platform["errors"] == 3 * 100


def test_levels_are_computed_from_the_measured_seconds(full_run):
    _, result = full_run
    levels = result["modes"]["platform"]["levels"]
    assert [lv["target_rps"] for lv in levels] == [100, 200, 300, 400, 500]
    assert [lv["seconds"] for lv in levels] == [3] * 5  # the drain second belongs to no level
    assert [lv["healthy"] for lv in levels] == [True, True, True, False, False]
    fourth, last = levels[3], levels[4]
    assert (fourth["p50_ms"], fourth["p95_ms"], fourth["p99_ms"], fourth["max_ms"]) == (201, 700, 900, 950)
    assert (last["offered_rps"], last["ok_rps"], last["error_ratio"]) == (500, 250, round(100 / 350, 4))
    # the warm-up's 5000 ms never reaches a level
    assert max(lv["max_ms"] for lv in levels) == 950


def test_timeline_and_server_columns_are_the_contracts(full_run):
    run, _ = full_run
    for mode in ("platform", "virtual"):
        assert (run / mode / "timeline.csv").read_text().splitlines()[0] == TIMELINE_HEADER
        # the fixed columns first, then the thread-service's other metrics (test_metrics.py checks those)
        assert (run / mode / "server.csv").read_text().splitlines()[0].startswith(SERVER_HEADER + ",")


def test_timeline_is_the_measured_phase_merged_across_injectors(full_run):
    run, _ = full_run
    timeline = rows(run / "virtual" / "timeline.csv")
    assert [int(r["second"]) for r in timeline] == list(range(16))  # 5 levels x 3 s + 1 drain second
    assert [int(r["offered_rps"]) for r in timeline[:6]] == [100, 100, 100, 200, 200, 200]
    assert [int(r["ok"]) for r in timeline[:4]] == [100, 100, 100, 200]
    # each injector recorded half of a level's requests; merged percentiles are those of all of them together
    per_injector = synthrun.split(100, HEALTHY)
    union = HdrHistogram(1, 3_600_000, 3)
    for value, count in per_injector + per_injector:
        union.record_value(value, count)
    expected = hlog.stats(union)
    fourth = timeline[3]
    assert [int(fourth[k]) for k in ("p50_ms", "p95_ms", "p99_ms", "max_ms")] == [
        expected.p50_ms,
        expected.p95_ms,
        expected.p99_ms,
        expected.max_ms,
    ]


def test_targets_split_over_three_injectors_add_back_up(tmp_path):
    synthrun.write_params(tmp_path, modes=["virtual"])
    synthrun.write_mode(tmp_path, "virtual", ModeSpec(stairs(n=3), injectors=3))
    levels = summarised(tmp_path)["modes"]["virtual"]["levels"]
    assert [lv["target_rps"] for lv in levels] == [100, 200, 300]
    assert [lv["offered_rps"] for lv in levels] == [99, 198, 300]  # each injector sends its whole requests


def test_server_rows_hold_per_second_rates_and_maxima(full_run):
    run, _ = full_run
    server = rows(run / "virtual" / "server.csv")
    assert len(server) == 16
    first = server[0]
    assert first["gc_pause_ms"] == "5" and first["downstream_ms_mean"] == "201"
    assert first["heap_used_mb"] == "100" and first["virtual_threads_mounted"] == ""  # -1 = unavailable
    assert first["injector_cpu_pct"] == "30" and first["thread_host_cpu_pct"] == "50"


def test_rebuild_is_deterministic(full_run):
    run, _ = full_run
    names = ["summary.json", "index.html", "platform/timeline.csv", "virtual/server.csv"]
    before = {n: (run / n).read_bytes() for n in names}
    report.rebuild(run)
    assert {n: (run / n).read_bytes() for n in names} == before


@pytest.mark.parametrize(
    "levels, sustained, collapsed",
    [
        (stairs(), 500, False),  # healthy throughout: the peak
        (stairs(l2=dict(latency=SLOW_TAIL), l3=dict(latency=SLOW_TAIL)), 200, True),  # latency collapse
        (stairs(l3=dict(ok_share=0.97, ko_share=0.03)), 300, True),  # errors only
        (stairs(l2=dict(ok_share=0.9)), 200, True),  # throughput only
        # first level unhealthy, and so is the next: the knee lies below the first level
        (stairs(l0=dict(ko_share=0.2, ok_share=0.8), l1=dict(ko_share=0.2, ok_share=0.8)), 0, True),
        # first level unhealthy, every higher one healthy: it did not reproduce (the warm-up's end), not a knee
        (stairs(l0=dict(ko_share=0.2, ok_share=0.8)), 500, False),
    ],
)
def test_knee_on_synthetic_runs(tmp_path, levels, sustained, collapsed):
    synthrun.write_params(tmp_path, modes=["platform"])
    synthrun.write_mode(tmp_path, "platform", ModeSpec(levels))
    mode = summarised(tmp_path)["modes"]["platform"]
    assert (mode["sustained_rps"], mode["collapsed"]) == (sustained, collapsed)
    transient = [t for t in mode["refine"]["transients"] if t.startswith("the first level, 100.0 rps, was unhealthy")]
    assert len(transient) == (1 if sustained == 500 and levels[0].ko_share else 0), mode["refine"]["transients"]


def test_half_finished_run_lists_what_is_missing(tmp_path):
    synthrun.write_params(tmp_path, completed=["platform"])
    synthrun.write_mode(tmp_path, "platform", ModeSpec(stairs(), omit={"raw/thread/jvm.csv"}))
    result = report.rebuild(tmp_path).as_json()
    assert result["missing_modes"] == ["virtual"]
    assert list(result["modes"]) == ["platform"]
    assert result["virtual_over_platform"] is None
    assert "platform/raw/thread/jvm.csv" in result["modes"]["platform"]["missing"]
    assert result["modes"]["platform"]["sustained_rps"] == 500
    server = rows(tmp_path / "platform" / "server.csv")
    assert server and all(r["jvm_threads_live"] == "" and r["gc_pause_ms"] == "" for r in server)
    page = (tmp_path / "index.html").read_text()
    assert 'id="missing"' in page and "jvm.csv" in page and "virtual was not measured" in page


def test_a_mode_that_did_not_finish_is_invalid(tmp_path):
    synthrun.write_params(tmp_path, modes=["platform"], completed=[])
    synthrun.write_mode(tmp_path, "platform", ModeSpec(stairs()))
    mode = summarised(tmp_path)["modes"]["platform"]
    assert not mode["valid"]
    assert "this mode did not finish (the run was interrupted or failed)" in mode["invalid_reasons"]


def test_params_only_folder_does_not_crash(tmp_path):
    synthrun.write_params(tmp_path, mode_problems={"platform": ["gatling-injector-0 on local exited with code 2"]})
    (tmp_path / "platform" / "raw" / "injector-0").mkdir(parents=True)  # started, wrote nothing
    result = report.rebuild(tmp_path).as_json()
    assert result["modes"] == {} and result["missing_modes"] == ["platform", "virtual"]
    assert result["problems"] == {"platform": ["gatling-injector-0 on local exited with code 2"]}
    page = (tmp_path / "index.html").read_text()
    assert "incomplete" in page and "exited with code 2" in page


def test_folder_without_params_json_is_read_from_its_mode_folders(tmp_path):
    run = tmp_path / "20261121-130501"
    synthrun.write_mode(run, "virtual", ModeSpec(stairs()))
    result = summarised(run)
    assert result["run_id"] == "20261121-130501" and result["missing"] == ["params.json"]
    assert result["modes"]["virtual"]["sustained_rps"] == 500


def test_damaged_files_are_reported_not_fatal(tmp_path):
    synthrun.write_params(tmp_path, modes=["platform"])
    synthrun.write_mode(
        tmp_path,
        "platform",
        ModeSpec(stairs(l3=dict(latency=SLOW_TAIL)), omit={"raw/injector-0/meta.json", "raw/delay/samples.csv"}),
    )
    inj = tmp_path / "platform" / "raw" / "injector-0"
    with open(inj / "latency.hlog", "a") as f:
        f.write("Tag=ok,1763731000.000,1.000,0.001,HISTFAAAACh42pNpmSzMw\n")  # cut short by Ctrl-C
    with open(inj / "seconds.csv", "a") as f:
        f.write("1763731000,measure,4")  # half a row
    mode = summarised(tmp_path)["modes"]["platform"]
    # without meta.json, levels come from the seconds.csv level column, and the drain second is left out
    assert (mode["sustained_rps"], [lv["seconds"] for lv in mode["levels"]]) == (300, [3] * 5)
    assert "platform/raw/injector-0/latency.hlog: 1 unreadable line skipped" in mode["missing"]
    assert {"platform/raw/injector-0/meta.json", "platform/raw/delay/samples.csv"} <= set(mode["missing"])


def test_a_single_level_run_is_flagged_from_its_raw_files(tmp_path):
    # STEPS=1: one measured level cannot place a knee (was once a real e2e run, 40 s of make test)
    synthrun.write_params(tmp_path, modes=["virtual"])
    synthrun.write_mode(tmp_path, "virtual", ModeSpec(stairs(n=1)))
    mode = report.rebuild(tmp_path).as_json()["modes"]["virtual"]
    assert not mode["valid"] and mode["invalid_reasons"] == ["only 1 level measured; a knee needs at least 2"]
    page = (tmp_path / "index.html").read_text()
    assert 'id="invalid"' in page and "invalid because virtual: only 1 level measured" in page


def test_validity_is_judged_from_the_raw_evidence(tmp_path):
    synthrun.write_params(tmp_path, modes=["platform"])
    synthrun.write_mode(
        tmp_path,
        "platform",
        ModeSpec(
            stairs(
                l0=dict(downstream_ms=300.0),
                l1=dict(downstream_ms=260.0, probe_ms=255.0),
                l2=dict(sent_share=0.8, ok_share=0.8),
            )
        ),
    )
    mode = summarised(tmp_path)["modes"]["platform"]
    # each level whose instrument was saturated is set aside, named from 1; the other three carry the answer
    assert mode["valid"] and mode["invalid_reasons"] == []
    # level 1: only the thread-service's calls were slow (its own waits), not the delay-service itself
    assert [(e["level"], e["reason"]) for e in mode["set_aside_levels"]] == [
        (
            2,
            "the delay-service was saturated: probed on its own host, it answered in 255 ms (median), more than "
            "20 ms above its 202 ms at the lightest level; the thread-service's calls took 260 ms",
        ),
        (3, "the injector fell behind: it sent 240 requests/s, 80% of the target (needs 95%)"),
    ]
    assert mode["sustained_rps"] == 500 and mode["knee_bound"] is None
    assert [lv["evidence"]["delay_probe_ms"] for lv in mode["levels"]] == [202, 255, 202, 202, 202]


@pytest.mark.parametrize("omit", [set(), {"raw/injector-0/meta.json"}])
def test_levels_after_an_early_stop_are_left_out(tmp_path, omit):
    synthrun.write_params(tmp_path, modes=["platform"])
    synthrun.write_mode(
        tmp_path,
        "platform",
        ModeSpec(stairs(l2=dict(latency=SLOW_TAIL)), stop_at=(3, 2), stopped_early=True, omit=omit, drain_seconds=0),
    )
    mode = summarised(tmp_path)["modes"]["platform"]
    # the cut level keeps the seconds it really sent in; the labelled but silent seconds after the stop count for
    # nothing, with meta.json's schedule or, without it, as trailing seconds that sent nothing
    assert [(lv["index"], lv["seconds"]) for lv in mode["levels"]] == [(1, 3), (2, 3), (3, 3), (4, 2)]
    assert (mode["sustained_rps"], mode["valid"]) == (200, True)


def test_stopped_early_is_carried_over(tmp_path):
    synthrun.write_params(tmp_path, modes=["platform"])
    synthrun.write_mode(
        tmp_path, "platform", ModeSpec(stairs(n=3), stopped_early=True, stop_reason="3 unhealthy seconds in a row")
    )
    mode = summarised(tmp_path)["modes"]["platform"]
    assert (mode["stopped_early"], mode["stop_reason"]) == (True, "3 unhealthy seconds in a row")


def test_the_inflight_caps_stop_reaches_the_page_as_numbers(tmp_path):
    """meta.json's `stop_inflight_cap` is what the page says, whatever the reason's wording."""
    cap = {"inflight": 6001, "max_inflight": 6000}
    synthrun.write_params(tmp_path, modes=["platform"])
    synthrun.write_mode(
        tmp_path,
        "platform",
        ModeSpec(stairs(n=3), stopped_early=True, stop_reason="reworded by a newer simulation", stop_inflight_cap=cap),
    )
    mode = report.rebuild(tmp_path).as_json()["modes"]["platform"]
    assert mode["stop_inflight_cap"] == cap
    html = (tmp_path / "index.html").read_text()
    assert "yes: 6,001 requests were in flight, over the simulation&#x27;s safety cap of 6,000" in html


def test_missing_run_folder_is_an_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        report.rebuild(tmp_path / "nope")


@pytest.mark.parametrize(
    "live, reason",
    [
        ({"thread_mode": "platform", "tomcat_threads_max": 50}, None),
        (
            {"thread_mode": "platform", "tomcat_threads_max": 200},
            "the thread-service ran with 200 Tomcat threads, not PLATFORM_THREADS=50",
        ),
        ({"thread_mode": "virtual", "tomcat_threads_max": 50}, "the thread-service ran in virtual mode, not platform"),
    ],
)
def test_a_mode_whose_live_settings_differ_from_the_request_is_invalid(tmp_path, live, reason):
    synthrun.write_params(tmp_path, modes=("platform",))
    params_file = tmp_path / "params.json"
    run = json.loads(params_file.read_text())
    run["params"]["PLATFORM_THREADS"] = 50
    params_file.write_text(json.dumps(run))
    synthrun.write_mode(tmp_path, "platform", ModeSpec(stairs()))
    (tmp_path / "platform" / "raw" / "thread" / "config.json").write_text(json.dumps(live))
    mode = summarised(tmp_path)["modes"]["platform"]
    assert mode["live_config"] == live
    if reason is None:
        assert mode["valid"], mode["invalid_reasons"]
    else:
        assert not mode["valid"] and reason in mode["invalid_reasons"]
    # Little's law uses the pool the service really had.
    assert mode["predicted_rps"] == round(live["tomcat_threads_max"] * 1000 / mode["baseline_p50_ms"])
