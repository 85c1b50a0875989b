"""What each request and each thread cost, from a mode's flight recording (flight.json as `jfr print --json` writes
it) and its sampler's rows: the slopes a user reads in summary.json, known in advance from synthetic raw files."""

import json
from datetime import datetime, timezone

import pytest
import synthrun
from conftest import summarised
from synthrun import START_EPOCH, ModeSpec, stairs

from loadlab import report
from loadlab.summary.reading import flight

MB = 1024 * 1024
RATES = (100, 200, 300, 400)
STACK_KB_PER_INFLIGHT, HEAP_KB_PER_INFLIGHT = 64, 100
ALLOCATED_PER_REQUEST = 20 * 1024
SWITCHES_PER_REQUEST, SWITCHES_FIXED = 3, 500


def stamp(t: float) -> str:
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f") + "000Z"


def event(kind: str, t: float, **values) -> dict:
    return {"type": kind, "values": {"startTime": stamp(t), **values}}


def write_costs(run_dir, mode: str, inflight_of, rps_of, seconds, crashed: bool = False):
    """flight.json and samples.csv for `seconds` (epoch), with in-flight and rate given per second."""
    thread = run_dir / mode / "raw" / "thread"
    events, used, switches = [], 40 * MB, 0
    lines = ["second,proc_cpu_pct,host_cpu_pct,host_cores,probe_ms,probe_failed,os_threads,context_switches"]
    for s in seconds:
        inflight, rps = inflight_of(s), rps_of(s)
        live = 50 * MB + inflight * HEAP_KB_PER_INFLIGHT * 1024
        events += [
            event("jdk.ResidentSetSize", s + 0.1, size=300 * MB + inflight * 300 * 1024, peak=0),
            event("jdk.JavaThreadStatistics", s + 0.1, activeCount=30 + inflight, daemonCount=20),
            event(
                "jdk.NativeMemoryUsage",
                s + 0.1,
                type="Thread Stack",
                reserved=0,
                committed=8 * MB + inflight * STACK_KB_PER_INFLIGHT * 1024,
            ),
            event("jdk.NativeMemoryUsage", s + 0.1, type="Thread", reserved=0, committed=MB),
            event("jdk.ThreadContextSwitchRate", s + 0.1, switchRate=9999.0),
        ]
        # The heap fills at the allocation rate; a GC in the middle of every second leaves the live heap.
        before = used + rps * ALLOCATED_PER_REQUEST / 2
        events += [
            event("jdk.GCHeapSummary", s + 0.5, gcId=s, when="Before GC", heapUsed=before),
            event("jdk.GCHeapSummary", s + 0.51, gcId=s, when="After GC", heapUsed=live),
            event("jdk.GarbageCollection", s + 0.5, duration="PT0.01S", sumOfPauses="PT0.004S", gcId=s),
        ]
        used = live + rps * ALLOCATED_PER_REQUEST / 2
        events.append(event("jdk.GCHeapMemoryUsage", s + 0.99, used=used, committed=512 * MB, max=1024 * MB))
        switches += rps * SWITCHES_PER_REQUEST + SWITCHES_FIXED
        lines.append(f"{s},50.0,50.0,2,,,{30 + inflight + 12},{switches}")
    thread.mkdir(parents=True, exist_ok=True)
    if not crashed:
        (thread / "flight.json").write_text(json.dumps({"recording": {"events": events}}))
    (thread / "samples.csv").write_text("\n".join(lines) + "\n")


def make_run(tmp_path, crashed: bool = False, gc_every_second: bool = True):
    run = tmp_path / "run"
    spec = ModeSpec(stairs(RATES), seconds_per_level=4)
    synthrun.write_params(run, modes=["virtual"])
    synthrun.write_mode(run, "virtual", spec)
    # The injectors' in-flight: Little's law at 200 ms (the synthetic run's sent == ok leaves it 0).
    seconds_csv = run / "virtual" / "raw" / "injector-0" / "seconds.csv"
    rows = [r.split(",") for r in seconds_csv.read_text().splitlines()]
    rate = {int(r[0]): int(r[3]) for r in rows[1:]}
    for r in rows[1:]:
        r[7] = str(int(r[3]) // 5)
    seconds_csv.write_text("\n".join(",".join(r) for r in rows) + "\n")
    write_costs(run, "virtual", lambda s: rate.get(s, 0) // 5, lambda s: rate.get(s, 0), sorted(rate), crashed)
    return run


def test_costs_per_request_are_the_slopes_over_the_healthy_levels(tmp_path):
    run = make_run(tmp_path)
    mode = report.rebuild(run).as_json()["modes"]["virtual"]
    page = (run / "index.html").read_text()
    assert '<section id="costs">' in page and "164.0 KB" in page and "context switches per request (process)" in page
    # live heap + thread stacks, per request in flight: the fixed 58 MB is the intercept, not a cost
    assert mode["memory_per_inflight_kb"] == pytest.approx(STACK_KB_PER_INFLIGHT + HEAP_KB_PER_INFLIGHT, abs=0.5)
    fit = mode["costs"]["memory_per_inflight"]
    assert fit["r2"] == pytest.approx(1.0) and fit["range"] == [20, 80] and fit["points"] >= 12, fit
    assert fit["interval"][0] <= fit["slope"] <= fit["interval"][1], fit
    # RSS rises too (300 KB per request in flight here) but it is not what the memory figure is
    assert mode["costs"]["rss_per_inflight"]["slope"] == pytest.approx(300, abs=1)
    assert mode["costs"]["thread_stacks_per_inflight"]["slope"] == pytest.approx(STACK_KB_PER_INFLIGHT, abs=0.5)
    assert mode["context_switches_per_request"] == pytest.approx(SWITCHES_PER_REQUEST, abs=0.05)
    assert mode["costs"]["context_switches_source"] == "process"
    assert mode["bytes_allocated_per_request"] == pytest.approx(ALLOCATED_PER_REQUEST, rel=0.02)
    level = mode["levels"][3]
    assert level["os_threads"] == 30 + 80 + 12 and level["rss_mb"] == pytest.approx(300 + 80 * 300 / 1024, abs=0.1)
    assert level["costs"]["gc_pause_ms_per_s"] == pytest.approx(4.0)


def test_a_service_that_died_before_its_recording_has_no_memory_figure_and_says_why(tmp_path):
    mode = summarised(make_run(tmp_path, crashed=True))["modes"]["virtual"]
    assert mode["memory_per_inflight_kb"] is None and mode["bytes_allocated_per_request"] is None
    assert any("no flight recording" in m for m in mode["costs"]["missing"]), mode["costs"]
    # the sampler's rows are the process's own: its threads and switches are still there
    assert mode["levels"][0]["os_threads"] == 30 + 20 + 12
    assert mode["context_switches_per_request"] == pytest.approx(SWITCHES_PER_REQUEST, abs=0.05)


def test_heap_walk_counts_every_rise_and_no_gc_drop():
    readings = [(0.0, "reading", 100.0), (0.5, "before", 160.0), (0.5, "after", 40.0), (1.2, "reading", 90.0)]
    assert flight.heap_walk(readings) == {0: 60.0, 1: 50.0}


def test_jfr_instants_and_timespans_are_read_as_jfr_print_writes_them():
    assert flight.epoch_seconds("1970-01-01T00:00:01.500000000Z") == pytest.approx(1.5)
    assert flight.duration_ms("PT0.012S") == pytest.approx(12.0)
    assert flight.epoch_seconds("garbage") is None


def test_the_memory_ceiling_follows_from_the_slope_and_the_cgroups_memory(tmp_path):
    run = make_run(tmp_path)
    limits = {"service_pids_max": 16384, "service_pids_max_by": "kernel.pid_max 32768 / 2"}
    limits |= {"service_memory_max_mb": 2048, "service_memory_max_by": "MemTotal 4096 MB / 2"}
    (run / "virtual" / "raw" / "thread" / "limits.json").write_text(json.dumps(limits))
    mode = summarised(run)["modes"]["virtual"]
    by = {p["predicted_by"]: p for p in mode["predictions"]}
    assert "threads" not in by  # virtual threads are not OS threads: no thread ceiling
    memory = by["memory"]
    # Two memory limits: the cgroup's 2,048 MB against RSS at live heap + stacks per request (164 KB), and the heap's
    # maximum (1,024 MB here) against the live heap (100 KB per request); the heap runs out first.
    first = mode["levels"][0]
    by_cgroup = (2048 - first["rss_mb"]) * 1024 / mode["costs"]["memory_per_inflight"]["slope"]
    by_heap = (1024 - first["costs"]["live_heap_mb"]) * 1024 / mode["costs"]["live_heap_per_inflight"]["slope"]
    assert mode["costs"]["live_heap_per_inflight"]["slope"] == pytest.approx(HEAP_KB_PER_INFLIGHT, abs=0.5)
    assert by_heap < by_cgroup
    assert memory["rps"] == pytest.approx(by_heap * 1000 / mode["baseline_p50_ms"], rel=0.01)
    assert "the heap's maximum" in memory["formula"]
    low, high = memory["interval_rps"]
    assert low <= memory["rps"] <= high and memory["fitted_on_rps"] == [100, 400] and memory["levels"] == 4
    # below every other limit here, but more than 100× above the 400 rps the run offered (prediction.FAR_ABOVE_RUN):
    # listed and flagged, no prediction of this run's knee, and never judged against it
    assert memory["beyond_run"] and all(p["beyond_run"] for p in mode["predictions"])
    assert mode["predicted_rps"] is None and mode["predicted_by"] is None and mode["prediction_agrees"] is None
    assert mode["prediction_verdict"] == "beyond the run"


def _inflight_by_littles_law(seconds_csv) -> dict[int, int]:
    """The injector's in-flight column at 200 ms (Little's law), written in; its offered rate by epoch second."""
    rows = [r.split(",") for r in seconds_csv.read_text().splitlines()]
    for r in rows[1:]:
        r[7] = str(int(r[3]) // 5)
    seconds_csv.write_text("\n".join(",".join(r) for r in rows) + "\n")
    return {int(r[0]): int(r[3]) for r in rows[1:]}


def test_a_small_pool_whose_only_healthy_coarse_level_is_the_first_gets_its_costs_from_the_fine_pass(tmp_path):
    run = tmp_path / "run"
    synthrun.write_params(run, modes=["platform"], REFINE=1)
    synthrun.write_mode(
        run,
        "platform",
        ModeSpec(stairs((100, 200, 300), slow_from=200), seconds_per_level=4),
    )
    fine_rates = [100, 113, 126, 139, 152, 165]  # refine.fine_rates(Bracket(100, 200)), stopped at 165
    fine = ModeSpec(
        stairs(fine_rates, slow_from=165),
        seconds_per_level=4,
        start_epoch=START_EPOCH + 1000,
    )
    synthrun.write_fine_pass(run, "platform", "refine-1", fine)
    rate = _inflight_by_littles_law(run / "platform" / "raw" / "injector-0" / "seconds.csv")
    rate.update(_inflight_by_littles_law(run / "platform" / "refine-1" / "raw" / "injector-0" / "seconds.csv"))
    write_costs(run, "platform", lambda s: rate.get(s, 0) // 5, lambda s: rate.get(s, 0), sorted(rate))
    mode = report.rebuild(run).as_json()["modes"]["platform"]
    costs = mode["costs"]
    assert costs["levels_fitted"] == [1]  # one healthy coarse level: no slope from it alone
    assert costs["fitted_on"] == {"coarse": [1], "refine-1": [1, 2, 3, 4, 5]}
    assert costs["fitted_on_text"] == "1 coarse level (100 rps) and 5 fine (refine-1) levels (100–152 rps)"
    assert mode["memory_per_inflight_kb"] == pytest.approx(STACK_KB_PER_INFLIGHT + HEAP_KB_PER_INFLIGHT, abs=0.5)
    assert mode["context_switches_per_request"] == pytest.approx(SWITCHES_PER_REQUEST, abs=0.05)
    assert "1 coarse level (100 rps) and 5 fine (refine-1) levels" in (run / "index.html").read_text()
