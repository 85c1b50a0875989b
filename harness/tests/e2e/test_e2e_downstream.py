"""End to end: the downstream as services have it (issue 34), in one tiny real run of platform alone: the delay drawn
per answer from a lognormal (median 100 ms, p99 500 ms: mean 127 ms), 2% of the answers a 503 and 1% a reset
connection, coarse levels only (REFINE=0: the fine pass is the tiny local run's; here it ran three passes, 36 s, 9 s
and 28 s of load, and made this the slowest run of `make test`).

- Little's law on the distribution's MEAN: 8 threads / 0.127 s ≈ 63 rps, where the median would say 80; the
  prediction says it is a mean wait, and the coarse knee (between 30 and 70 rps: the pool cannot deliver 70) agrees
  with it (prediction_agrees) and stays below what the median would say;
- the injected failures are counted by the delay-service, kept apart from the service's own errors, and do not make
  the mode collapse at a level that held;
- the delay the stand-in served kept to its distribution (the run is valid: the served-delay check did not fire), and
  its served log has every answer.
The served-delay check on a stand-in slowed on purpose is test_e2e_repeat_sweep.py's starved delay-service.
"""

import json
import time

import pytest
from claims import HostWatch, claim
from conftest import blamed_on_the_machine, harness_exit, make
from test_e2e_local import busy_levels, level_windows

pytestmark = pytest.mark.e2e

TINY_LOGNORMAL = {
    "TARGET": "local",
    "MODES": "platform",
    "PLATFORM_THREADS": "8",
    "DELAY_DIST": "lognormal",
    "DELAY_MS": "100",
    "DELAY_P99_MS": "500",
    "DOWNSTREAM_ERRORS": "2",
    "DOWNSTREAM_RESETS": "1",
    # 30 then 70 rps: 8 threads at about 0.14 s (the mean and the service) serve about 58, so 30 holds and 70 cannot,
    # and 70 is below the 80 the median would say. A level near the ceiling is a coin toss either way: CI saw 48 rps
    # fail (94% of it delivered: the 3% failed on purpose and the rise of what is in flight) and 57 hold. 5 s levels:
    # the first level's 150 requests meet an injected failure but once in a hundred runs.
    "START_RPS": "30",
    "PEAK_RPS": "70",
    "STEPS": "2",
    "STEP_SECONDS": "5",
    "WARMUP_SECONDS": "4",
    "REFINE": "0",
}


@pytest.fixture(scope="module")
def lognormal_run(tmp_path_factory):
    results = tmp_path_factory.mktemp("results")
    began = time.monotonic()
    with HostWatch() as watch:
        r = make("bench", env={**TINY_LOGNORMAL, "RESULTS_DIR": str(results)}, timeout=600)
    print(f"lognormal bench: {time.monotonic() - began:.0f} s")
    run_dir = (results / "latest").resolve()
    assert (run_dir / "summary.json").is_file(), r.stdout[-3000:] + r.stderr[-3000:]
    return r, run_dir, json.loads((run_dir / "summary.json").read_text()), watch


def test_platforms_knee_meets_littles_law_on_the_distributions_mean(lognormal_run):
    r, run_dir, summary, watch = lognormal_run
    assert harness_exit(r) in (0, 1), r.stdout[-3000:] + r.stderr[-3000:]
    platform = summary["modes"]["platform"]
    assert platform["predicted_by"] == "little", platform
    assert "mean wait (median 0.1 s, lognormal p99 0.5 s)" in platform["prediction"], platform["prediction"]
    # 8 / (0.127 s mean + what the service adds): well below the 80 rps the median would give, well above the 16 the
    # p99 would. The first level's mean wait is measured on 150 requests of a heavy tail (seen: 0.140-0.169 s, 47-57)
    assert 35 <= platform["predicted_rps"] <= 66, platform
    excuse = ""
    if blamed_on_the_machine(platform):
        windows = level_windows(run_dir, "platform", {lv["index"] for lv in busy_levels(platform)})
        excuse = watch.saturated_by_others(windows)
    median_says = 8 * 1000 / 100
    claim(
        platform["valid"] and platform["prediction_agrees"] is True and platform["knee_interval_rps"][1] < median_says,
        "platform's knee agrees with Little's law on the distribution's mean, below what the median would say",
        (platform["knee_interval_rps"], platform["predicted_interval_rps"], platform["invalid_reasons"]),
        excuse,
    )


def test_the_downstreams_injected_failures_are_counted_apart_and_are_not_a_collapse(lognormal_run):
    _, run_dir, summary, _ = lognormal_run
    platform = summary["modes"]["platform"]
    first = platform["levels"][0]
    # about 3% of the first level's answers failed on purpose; the service's errors are those alone (fewer: its JDK
    # client retries a GET once on a reset connection), and the level held
    assert first["downstream_injected"] > 0 and first["healthy"], first
    errors = sum(sum(lv["errors_by_kind"].values()) for lv in platform["levels"])
    assert 0 < errors <= sum(lv["downstream_injected"] for lv in platform["levels"]), platform["levels"]
    params = json.loads((run_dir / "params.json").read_text())
    assert params["downstream"]["errors_pct"] == 2 and params["downstream"]["resets_pct"] == 1
    figures = params["downstream"]["distribution"]["figures"]
    assert figures["p50_ms"] == 100 and figures["p99_ms"] == 500 and 126 <= figures["mean_ms"] <= 128
    served = (run_dir / "raw" / "delay" / "served.hlog").read_text()
    assert "Tag=error," in served and "Tag=reset," in served
    # the stand-in kept to its distribution on the levels the knee stands on (a level it served late would be set
    # aside, the instrument's, not the service's)
    late = [x for x in platform["set_aside_levels"] if "delay-service served" in x["reason"]]
    assert not [x for x in late if x["target_rps"] <= platform["sustained_rps"]], late
