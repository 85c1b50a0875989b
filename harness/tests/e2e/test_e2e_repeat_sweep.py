"""End to end: REPEAT=2 of a pool sweep of two tiny pools (PLATFORM_THREADS="4 8") on a ramp (PROFILE=ramp), in one
real `make bench` — the documented features no other e2e run carries:

- REPEAT > 1 as a bench: each repetition in `rep-<k>/` with its own summary.json and page, the run's own summary
  with `repeats` (per pool the median and range over the valid repetitions), and the every-repetition-valid rule:
  the second repetition is starved on purpose (fault_windows.py), so it is invalid, each median comes from the valid
  first one alone, and the run exits 1 although the columns the page shows are valid;
- the validity verdict on a run that causes each problem on purpose (the clean run that must not be flagged is
  test_e2e_local.py's): in repetition 2 the delay-service is starved while `platform-t4` measures, then
  `platform-t8`'s injector (the run's 4th Gatling). Each column must be flagged for its own fault and not for the
  other's;
- a pool sweep: each pool its own column (`platform-t4`, `platform-t8`), each pool's knee near its own Little's law
  (4 and 8 threads at DELAY_MS=100: ≈ 38 and ≈ 76 rps), the larger pool's above the smaller's;
- PROFILE=ramp judged by the harness: 10 → 130 rps over 6 windows of 3 s (window means 20, 40 … 120 rps), each
  window judged as a level by the same health rule. The first window ends at 30 rps, well below the smaller pool's
  ≈ 38: a ramp's window is judged on its last seconds too, and one that ends at the pool's capacity is a coin toss.
"""

import json
import os
import time

import pytest
from claims import HostWatch, claim
from conftest import blamed_on_the_machine, harness_exit
from fault_windows import bench_with_windows, cgroup_usable, no_fault_cgroup_left, seconds_rows
from test_e2e_local import busy_levels, level_windows

# Outside make test's budget (docs/TESTS.md): `make test-extended` runs it.
pytestmark = [pytest.mark.e2e, pytest.mark.extended]

SWEEP = {
    "TARGET": "local",
    "MODES": "platform",
    "PLATFORM_THREADS": "4 8",
    "REPEAT": "2",
    "PROFILE": "ramp",
    "DELAY_MS": "100",
    "START_RPS": "10",
    "PEAK_RPS": "130",
    "STEPS": "6",
    "STEP_SECONDS": "3",
    "WARMUP_SECONDS": "3",
    "INJECTORS": "1",
    "REFINE": "0",  # the fine pass is the tiny local run's; here it would only cost time
}
# Repetition 2's columns, each starved while its window file exists: opened once its schedule is anchored, closed once
# its ramp has ended (fault_windows.bench_with_windows), so the JVMs boot and Gatling writes its report at full speed.
# platform-t8's Gatling is the run's 4th (t4, t8 per repetition); the delay-service starts once, before them all.
# The delay-service at 1% of a core: at 3% it once answered its lone probe in 117 ms and its handlers' timers on time
# while the thread-service's calls queued for 400-550 ms, and neither of its instruments named it (see the note of
# 2026-11-27: the service's own call time is the witness left to add).
STARVED = "delay-service=1@file,gatling-injector-0#4=3@file"
STARVED_IN = {"rep-2/platform-t4": "delay-service", "rep-2/platform-t8": "gatling-injector-0"}
WINDOW_MEANS = [20, 40, 60, 80, 100, 120]
# The fewest answers in a level's own record that can show a starved stand-in late beyond chance.
MIN_RECORD = 3


@pytest.fixture(scope="module")
def sweep_run(tmp_path_factory):
    results = tmp_path_factory.mktemp("results")
    fault = STARVED if cgroup_usable() else None
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "TARGET", "MODES")}
    env.update({**SWEEP, "RESULTS_DIR": str(results), **({"LOADLAB_FAULT_CPU_QUOTA": fault} if fault else {})})
    began = time.monotonic()
    with HostWatch() as watch:
        r, windows = bench_with_windows(env, results, STARVED_IN if fault else {})
    print(f"REPEAT=2 sweep bench: {time.monotonic() - began:.0f} s")
    if fault:  # each fault really covered its column, or it proves nothing
        assert windows == {column: ["opened", "closed"] for column in STARVED_IN}, (windows, r.stdout[-2000:])
    run_dir = (results / "latest").resolve()
    assert (run_dir / "summary.json").is_file(), r.stdout[-3000:] + r.stderr[-3000:]
    return r, run_dir, watch, fault


def reps(run_dir) -> dict[int, dict]:
    return {k: json.loads((run_dir / f"rep-{k}" / "summary.json").read_text()) for k in (1, 2)}


def test_each_repetition_has_its_folder_summary_and_page_and_the_run_compares_them(sweep_run):
    _, run_dir, _, _ = sweep_run
    for k, rep in reps(run_dir).items():
        assert rep["repetition"] == k and list(rep["modes"]) == ["platform-t4", "platform-t8"], rep["modes"].keys()
        assert (run_dir / f"rep-{k}" / "index.html").is_file()
        assert (run_dir / f"rep-{k}" / "platform-t4" / "raw" / "injector-0" / "seconds.csv").is_file()
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["repeats"]["n"] == 2 and set(summary["repeats"]["modes"]) == {"platform-t4", "platform-t8"}
    assert [r["repetition"] for r in summary["repeats"]["modes"]["platform-t4"]["repetitions"]] == [1, 2]
    assert "rep-1" in (run_dir / "index.html").read_text()


def test_a_starved_repetition_is_invalid_left_out_of_the_median_and_fails_the_run(sweep_run):
    r, run_dir, _, fault = sweep_run
    if fault is None:
        pytest.skip("starving a process needs root and a CPU cgroup")
    summary = json.loads((run_dir / "summary.json").read_text())
    for column in ("platform-t4", "platform-t8"):
        assert reps(run_dir)[2]["modes"][column]["valid"] is False, column
        spread = summary["repeats"]["modes"][column]
        assert [x["valid"] for x in spread["repetitions"]] == [reps(run_dir)[1]["modes"][column]["valid"], False]
        assert spread["repetitions_used"] == (1 if spread["repetitions"][0]["valid"] else 0), spread
    assert [x["valid"] for x in summary["repetitions"]][1] is False, summary["repetitions"]
    # every repetition must be valid, not only the ones the page shows: the run fails
    assert harness_exit(r) == 1, r.stdout[-2000:] + r.stderr[-2000:]
    assert "platform-t8: repetition 2 INVALID (rep-2/platform-t8): the injector fell behind" in r.stdout, r.stdout


def test_a_starved_injector_falls_behind_and_is_flagged(sweep_run):
    _, run_dir, _, fault = sweep_run
    if fault is None:
        pytest.skip("starving a process needs root and a CPU cgroup")
    reasons = reps(run_dir)[2]["modes"]["platform-t8"]["invalid_reasons"]
    assert any(x.startswith("the injector fell behind: it sent") for x in reasons), reasons
    # really behind its schedule, in the injector's own counts
    rows = seconds_rows(run_dir / "rep-2", "platform-t8")
    assert sum(int(x["sent"]) for x in rows) < 0.8 * sum(float(x["target_rps"]) for x in rows), rows
    # the delay-service's fault had ended: it is not blamed in this column
    assert not any(x.startswith("the delay-service") for x in reasons), reasons


def test_a_starved_delay_service_is_flagged(sweep_run):
    _, run_dir, watch, fault = sweep_run
    if fault is None:
        pytest.skip("starving a process needs root and a CPU cgroup")
    starved = reps(run_dir)[2]["modes"]["platform-t4"]
    reasons = starved["invalid_reasons"]
    assert starved["valid"] is False, starved
    # On a machine saturated by other work a role's symptoms are reported as the machine's (analysis.validity):
    # that excuses the claim only on a workstation, and only when the test's own reading of the host agrees.
    excuse = ""
    if blamed_on_the_machine(starved):
        windows = level_windows(run_dir / "rep-2", "platform-t4", {lv["index"] for lv in busy_levels(starved)})
        excuse = watch.saturated_by_others(windows)
    claim(
        # by its probe (a median risen with the load) or by its own record of the delay it served, whichever showed
        # it first on the level it set aside
        any(
            x.startswith(("the delay-service was saturated: probed on its own host", "the delay-service served"))
            for x in reasons
        )
        # the injector kept its schedule: the blame is on the delay-service alone
        and not any(x.startswith("the injector") for x in reasons),
        "the starved delay-service is named, and the injector is not",
        reasons,
        excuse,
    )
    # ... and by its own record: the delay it served departed from the configured 100 ms at a level it names. Starved
    # to 1% of a core it may answer almost nothing within the level's seconds (seen in CI: 1 answer at 997 ms, then 2,
    # one of them at 998): one late answer of one or two is what chance may give a faithful stand-in (the unit tier's
    # test_a_stand_in_starved_to_a_few_answers_is_still_judged_on_them), so the record is held to name a level only
    # where it holds MIN_RECORD answers, all three late being beyond chance (p ≈ 1e-6).
    heard = [(lv["served_ms"] or {}).get("answers", 0) for lv in starved["levels"] if lv["set_aside"]]
    if max(heard, default=0) >= MIN_RECORD:
        claim(
            any("the delay-service served its answers slower than configured" in x for x in reasons),
            "the starved delay-service's served delay names the level where it departed from its distribution",
            (reasons, heard),
            excuse,
        )
    else:
        print(f"the starved delay-service gave {heard} answers in the levels set aside: its record cannot tell")


def test_no_fault_cgroup_is_left_after_the_run(sweep_run):
    assert no_fault_cgroup_left()


def test_the_ramp_is_judged_in_windows_and_each_pool_meets_its_own_littles_law(sweep_run):
    _, run_dir, watch, fault = sweep_run
    rep1 = reps(run_dir)[1]
    assert rep1["params"]["PROFILE"] == "ramp"
    knees = {}
    for label, threads in (("platform-t4", 4), ("platform-t8", 8)):
        m = rep1["modes"][label]
        targets = [lv["target_rps"] for lv in m["levels"]]
        # the windows the harness judged: the ramp's mean rate over each, ascending, cut after the first unhealthy
        assert targets == WINDOW_MEANS[: len(targets)] and len(targets) >= 2, (label, targets)
        assert m["live_config"]["tomcat_threads_max"] == threads, m["live_config"]
        little = threads * 1000 / m["baseline_p50_ms"]
        assert m["predicted_by"] == "little" and abs(m["predicted_rps"] - little) <= 1, m["prediction"]
        excuse = ""
        if blamed_on_the_machine(m):
            excuse = watch.saturated_by_others(
                level_windows(run_dir / "rep-1", label, {lv["index"] for lv in busy_levels(m)})
            )
        # no interval: the first window already failed (no knee to place) or none did (no upper side)
        low, high = m["knee_interval_rps"] or (None, None)
        claim(
            m["collapsed"] and low is not None and low <= 1.3 * little and high >= 0.7 * little,
            f"{label}'s ramp knee brackets its Little's law ({little:.0f} rps) within 30%",
            (m["knee_interval_rps"], [(lv["target_rps"], lv["healthy"], lv["p99_ms"]) for lv in m["levels"]]),
            excuse,
        )
        knees[label] = m["sustained_rps"] or 0
    assert knees["platform-t8"] > knees["platform-t4"], knees  # the sweep really changed the pool
