"""End to end on this machine: the real services and Gatling, a tiny platform pool, a short stairs well past it.

PLATFORM_THREADS=8 and DELAY_MS=200 give a Little's-law knee of about 37-40 rps (8 threads / the baseline p50); the
stairs go 25 → 55 rps in steps of 10, so the knee falls between two coarse levels (35 and 45) and the refinement pass
(REFINE=1, the default) must localise it: sustained within ±10% of Little's law, the bracket no wider than 10% of it.
Virtual must not collapse at all. The coarse tolerance (20..60 rps) fails if the pool size were ignored (no
collapse), the client pool capped throughput, or the knee were misplaced.
"""

import csv
import json
import os
import shutil
import signal
import socket
import subprocess
import time

import pytest
from claims import RUN_SHARE_MAX_PCT, HostWatch, claim
from conftest import MACHINE_REASONS, REPO, blamed_on_the_machine, harness_exit, machine_blame, make
from test_preflight import PREVIOUS_RUN, with_previous_run

from loadlab.analysis import hgrm, ratio_interval
from loadlab.analysis.validity import CPU_SATURATED_RATIO, delay_allowance_ms
from loadlab.core import database_use, params, run_scope
from loadlab.core.thresholds import Thresholds
from loadlab.run import preflight

pytestmark = pytest.mark.e2e

TINY = {
    "TARGET": "local",
    "MODES": "platform virtual",
    "PLATFORM_THREADS": "8",
    "DELAY_MS": "200",
    "PROFILE": "stairs",
    "START_RPS": "25",
    # 55, not 75: on this 2-core machine virtual's 65 and 75 rps levels ran the host at 72-84% with every role on it,
    # and once the stand-in served late there (its p99 278 ms for 200) and 65 rps read unhealthy; the claim is the
    # pool's knee against threads that have none, not the machine's CPU ceiling (the cpu scenario's run)
    "PEAK_RPS": "55",
    "STEPS": "4",
    "STEP_SECONDS": "4",
    "WARMUP_SECONDS": "4",
    "INJECTORS": "1",
    # Every request uses a 4 KB per-thread object (a cost too small to move any knee): counted, never timed.
    "THREADLOCAL_KB": "4",
    # Not Tomcat's default (8192), far above the few hundred connections this run opens: it must reach Tomcat.
    "MAX_CONNECTIONS": "600",
    # One fine pass (the test-only seam of finepasses.py): 7 levels between 35 and 45 rps place the knee within 10%
    # of Little's law; a second pass, 15 s more, was not used in the runs measured (38-40 rps is this pool's fuzzy
    # edge: a rate healthy once is not always healthy again). Passes after the first are the unit tier's.
    "LOADLAB_REFINE_PASSES": "1",
}
# A recorded downstream (DELAY_DIST=hgrm:…): spring-petclinic-rest's `GET /owners/{id}` on platform threads at
# 467 rps, its own .hgrm from run 20261127-160404 (docs/studies/mix.md): p50 5, p90 20, p99 51, max 82 ms.
RECORDED = f"hgrm:{REPO / 'harness' / 'tests' / 'data' / 'recorded-downstream.hgrm'}"
TIMELINE_COLUMNS = ["second", "offered_rps", "ok", "ko", "p50_ms", "p95_ms", "p99_ms", "max_ms"]


def ports_free(*ports: int) -> bool:
    for port in ports:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return False
    return True


# Where the local host keeps the services' extracted jars and class-data-sharing archives (infra/host/loadlab-host).
BOOT_CACHE = REPO / ".loadlab" / "state" / "local" / "boot"


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    # The thread-service as on the first run after a build: not extracted, no archive yet (the JVM that writes one
    # runs without JFR).
    shutil.rmtree(BOOT_CACHE / "thread-service", ignore_errors=True)
    for archive in BOOT_CACHE.glob("thread-service-*"):
        archive.unlink()
    results = with_previous_run(tmp_path_factory.mktemp("results"))
    given = params.parse({**TINY, "RESULTS_DIR": str(results)})
    assert preflight.preflight(run_scope.of_values(given), database_use.of_values(given)) == []
    with HostWatch() as watch:  # the host's own counters, read by this test (claims.py)
        r = make("bench", env={**TINY, "RESULTS_DIR": str(results)}, timeout=600)
    assert watch.saw_the_run(), "the test's own reading of the host found none of the run's processes"
    return r, (results / "latest").resolve(), watch


def test_a_run_that_passes_the_preflight_makes_exactly_one_folder(tiny_run):
    _, run_dir, _ = tiny_run
    results = run_dir.parent
    new = [p for p in results.iterdir() if p.name not in (PREVIOUS_RUN, "latest")]
    assert new == [run_dir] and os.readlink(results / "latest") == run_dir.name
    written = sum(f.stat().st_size for f in run_dir.rglob("*") if f.is_file())
    estimate = preflight.run_bytes(run_scope.of_values(params.parse({**TINY, "RESULTS_DIR": str(results)})))
    assert written <= estimate, f"the disk estimate ({estimate} bytes) is below a real run's {written} bytes"


def test_the_per_thread_object_is_built_once_per_pooled_thread_and_once_per_virtual_request(tiny_run):
    _, run_dir, _ = tiny_run
    modes = json.loads((run_dir / "summary.json").read_text())["modes"]
    platform, virtual = modes["platform"]["threadlocal"], modes["virtual"]["threadlocal"]
    assert platform["kb"] == virtual["kb"] == 4
    # 8 pooled threads build theirs once, whatever the requests (the same JVM serves every pass)
    assert 1 <= platform["builds_since_start"] <= 8 and platform["builds_per_request"] < 0.05, platform
    # a virtual thread per request: one build each (a sample may fall between a request's count and its build)
    assert 0.95 <= virtual["builds_per_request"] <= 1.05 and virtual["requests"] > 500, virtual


def test_the_first_run_after_a_build_keeps_every_modes_flight_recording(tiny_run):
    """The archive that speeds up the thread-service's start (an AOT cache on JDK 25, a class-data-sharing archive
    before) is written by a training run of its own: the measured JVM never dumps one, which would turn its flight
    recorder off and lose the mode's costs."""
    _, run_dir, _ = tiny_run
    summary = json.loads((run_dir / "summary.json").read_text())
    for mode in ("platform", "virtual"):
        thread_raw = run_dir / mode / "raw" / "thread"
        assert (thread_raw / "service.jfr").stat().st_size > 0 and (thread_raw / "flight.json").is_file(), mode
        missing = summary["modes"][mode]["costs"].get("missing", [])
        assert not [m for m in missing if "no flight recording" in m], missing
    written = [*BOOT_CACHE.glob("thread-service-*.aot"), *BOOT_CACHE.glob("thread-service-*.jsa")]
    assert written, "the training run wrote no archive"


def test_platform_collapses_near_littles_law_and_virtual_does_not(tiny_run):
    r, run_dir, watch = tiny_run
    assert harness_exit(r) in (0, 1), r.stdout[-3000:] + r.stderr[-3000:]  # 1: a mode judged invalid
    assert "platform" in r.stdout and "virtual" in r.stdout and "sustained" in r.stdout
    summary = json.loads((run_dir / "summary.json").read_text())
    platform, virtual = summary["modes"]["platform"], summary["modes"]["virtual"]
    busy = other_work_on_the_machine(summary)
    excuse = machine_excuse(summary, run_dir, watch)
    # a level set aside for other work on the machine may leave a bound instead of a collapse (excused as below)
    claim(platform["collapsed"] is True, "platform collapses", platform, excuse)
    # Little's law from the pool and the measured baseline (≈ 210 ms here, ≈ 235 ms over netns veths)
    assert 200 <= platform["baseline_p50_ms"] <= 260, platform
    assert abs(platform["predicted_rps"] - 8 * 1000 / platform["baseline_p50_ms"]) <= 1, platform
    # A claim that does not hold fails, unless the harness blamed the machine and the test's own reading of the
    # host agrees, on a workstation (CI unset): then it is reported as not proven (claims.py).
    claim(20 <= platform["sustained_rps"] <= 60, "platform's knee between 20 and 60 rps", platform, excuse)
    claim(
        virtual["collapsed"] is False and virtual["sustained_rps"] == 55,
        "virtual holds 55 rps without collapsing",
        virtual,
        excuse,
    )
    ratio = summary["virtual_over_platform"]
    if busy and not all(m["valid"] for m in (platform, virtual)):  # no ratio is claimed from an invalid mode
        assert ratio is None and summary["virtual_over_platform_reason"], summary
    if ratio is not None:
        # the ratio with what the knees' brackets allow, on the console as in summary.json; virtual held the top, so
        # it is a lower bound, said as one (issue 33)
        span, kind = summary["virtual_over_platform_interval"], summary["virtual_over_platform_bound"]
        assert span[0] is not None and span[0] <= ratio and (span[1] is None) == (kind == "lower"), summary
        printed = ratio_interval.text(ratio, span, kind)
        assert f"virtual / platform sustained throughput: {printed}" in r.stdout, r.stdout[-3000:]
    claim(
        ratio is not None and ratio >= 1.3,
        "virtual / platform >= 1.3 on the tiny run (a lower bound: virtual held the top)",
        (ratio, summary.get("virtual_over_platform_reason"), busy),
        excuse,
    )


def test_the_wait_profile_names_tomcats_queue_behind_a_full_pool(tiny_run):
    """Where the requests waited, from thread dumps: every level profiled with its folded stacks, virtual's requests
    waiting on the downstream, and at platform's knee the requests queued for Tomcat's 8 busy threads."""
    r, run_dir, watch = tiny_run
    summary = json.loads((run_dir / "summary.json").read_text())
    for name, m in summary["modes"].items():
        profiled = [lv for lv in m["levels"] if lv["waits"] and not lv["waits"]["too_few"]]
        assert profiled, (name, [lv["waits"] for lv in m["levels"]])
        assert (run_dir / name / "waits" / "level-01.folded").is_file(), name
        for lv in profiled:
            threads = [s for s in lv["waits"]["sites"] if s["category"] != "queued"]
            assert threads[0]["category"] == "downstream", (name, lv["target_rps"], lv["waits"])
    platform = summary["modes"]["platform"]
    if platform["collapsed"] and platform["waits_at_knee"]:
        at_knee = platform["waits_at_knee"]
        assert at_knee.startswith("queued before a thread took it: Tomcat's queue"), at_knee
        assert "waiting on the downstream (the JDK HttpClient's call)" in at_knee, at_knee


def test_the_refinement_pass_localises_the_platform_knee_between_two_coarse_levels(tiny_run):
    _, run_dir, watch = tiny_run
    summary = json.loads((run_dir / "summary.json").read_text())
    platform = summary["modes"]["platform"]
    refined = platform["refine"]
    excuse = machine_excuse(summary, run_dir, watch)
    assert platform["predicted_by"] == "little", platform
    assert [lv["target_rps"] for lv in platform["levels"]][:2] == [25, 35]
    other_work_on_the_machine(summary)
    localises = "the fine pass localises the knee to within 10% of Little's law"
    if blamed_on_the_machine(platform) and not platform["valid"]:
        # a coarse pass that cannot be trusted is not refined from: no fine pass narrows its bracket
        assert not any(p["used"] for p in refined["passes"]) and refined["not_refined"], refined
        claim(False, localises, platform["invalid_reasons"], excuse)
        return
    assert refined["coarse_interval_rps"] == [35, 45], platform["levels"]
    # the fine pass's raw files and Gatling report sit beside the coarse ones, which stay as measured
    assert (run_dir / "platform" / "refine-1" / "raw" / "injector-0" / "seconds.csv").is_file()
    assert list((run_dir / "platform" / "gatling" / "refine-1-injector-0").glob("*/index.html"))
    passes = refined["passes"]
    unused = [p["why_not_used"] for p in passes if not p["used"]]
    assert passes, refined
    if not any(p["used"] for p in passes):
        # an untrusted pass is kept but not used: the knee stays on the coarse bracket, and says so; only the
        # machine may be its reason, and only the test's own reading of the host may excuse it (claims.py)
        assert all(any(m in w for m in MACHINE_REASONS) for w in unused), unused
        assert refined["localised"] is False and platform["knee_interval_rps"] == [35, 45], refined
        windows = [w for p in passes for w in pass_window(run_dir, "platform", p["name"])]
        claim(False, localises, f"no pass used: {unused}", watch.saturated_by_others(windows))
        return
    little = platform["predicted_rps"]
    low, high = platform["knee_interval_rps"]
    # Localised, or as close as this machine can tell: a knee on Little's law sits where one more rps is healthy in
    # one pass and not in the next (seen: 40.1 rps delivered 39 then 38.0 of the 38.1 the rule asks), and a rate that
    # does not reproduce is not placed. Either way the fine pass must have put the knee on the law: narrowly, or at the
    # rate that did not reproduce (met by the last pass allowed, the bracket keeps its coarse top: seen at 40.3-45).
    said = [str(refined.get("not_refined")), *(str(p.get("why_not_used")) for p in passes)]
    unreproduced = any("which was measured healthy before" in w for w in said)
    # Narrow whether or not its top was confirmed: a rate unhealthy once in the last pass allowed is not confirmed
    # (seen: [40.4, 42.3] after a transient at 38.4), yet the passes did narrow [35, 45] to it.
    narrow = high - low <= 0.10 * little
    # Read at the health rule's resolution, as the harness's own agreement is: a healthy level delivers at least
    # ok_ratio of its rate, so a pool at its ceiling passes a short level offered up to 1/ok_ratio above it (seen: 40.4
    # rps healthy at 38.8 OK/s, 96%, with 8 threads at 206 ms each; Little's law on the 220 ms baseline said 36.4).
    sustained = platform["sustained_rps"]
    on_the_law = sustained * Thresholds().ok_ratio <= little * 1.10 and sustained >= little * 0.90
    claim(
        (narrow or unreproduced) and on_the_law,
        localises,
        (platform["sustained_rps"], platform["knee_interval_rps"], little, refined),
        excuse,
    )


def test_a_fine_pass_whose_levels_all_held_is_used(tiny_run):
    """Its seconds carry the rates their labels say: a healthy fine pass is never taken for an injector that fell
    behind (the fine pass warms up at half of its first rate, from a tenth of that)."""
    _, run_dir, _ = tiny_run
    for label, mode in json.loads((run_dir / "summary.json").read_text())["modes"].items():
        for fine in mode["refine"]["passes"]:
            why = fine["why_not_used"] or ""
            # (an injector a busy machine starved says so: "... while the machine was saturated")
            assert "fell behind" not in why or "saturated" in why, (label, fine)
            if fine["levels"] and all(lv["healthy"] for lv in fine["levels"]) and not fine["why_not_used"]:
                # no interval: the pass held the coarse unhealthy rate healthy, so no knee is placed (knee.py)
                interval = mode["knee_interval_rps"]
                assert interval is None or interval[0] >= fine["rates"][-1], (label, fine)


def test_a_clean_run_is_not_flagged(tiny_run):
    """The counterpart of the starved roles of test_e2e_repeat_sweep.py: nothing of the run was starved, so no role of
    it may be blamed. When other work saturates this shared machine the run is rightly invalid: then the harness must
    blame the machine, its own samples must show the load was not the run's, and the no-flag-at-all half fails unless
    the test's own reading of the host agrees, on a workstation only (claims.py)."""
    r, run_dir, watch = tiny_run
    summary = json.loads((run_dir / "summary.json").read_text())
    reasons = [x for m in summary["modes"].values() for x in m["invalid_reasons"]]
    assert not [x for x in reasons if not x.startswith(MACHINE_REASONS)], reasons
    # nor may a level be set aside for a role of it (a level set aside names what was saturated)
    aside = [e["reason"] for m in summary["modes"].values() for e in m.get("set_aside_levels") or []]
    assert not [x for x in aside if not x.startswith(MACHINE_REASONS)], aside
    excuse = machine_excuse(summary, run_dir, watch)
    if other_work_on_the_machine(summary) and reasons:
        assert harness_exit(r) == 1 and "INVALID" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]
    claim(
        reasons == [] and aside == [] and r.returncode == 0,
        "a clean run gets no validity flag at all",
        (reasons, aside, r.stdout[-2000:] + r.stderr[-2000:]),
        excuse,
    )
    # the delay-service's own latency was measured on its host, next to what the thread-service saw
    # (the probe's own cost is a few ms here and ~20 ms on a slower machine: the validity rule allows for it);
    # on a level where the machine was saturated its latency is the machine's, and is not judged
    virtual = summary["modes"]["virtual"]
    for level in virtual["levels"]:
        if level not in busy_levels(virtual):
            assert 200 <= level["evidence"]["delay_probe_ms"] <= 200 + 2 * delay_allowance_ms(200), level
    with open(run_dir / "virtual" / "server.csv") as f:
        probes = [row["delay_probe_ms"] for row in csv.DictReader(f)]
    assert sum(1 for p in probes if p) >= len(probes) - 2


def busy_levels(mode: dict) -> list[dict]:
    """The levels on which the host's CPU reached the harness's saturation limit."""
    return [lv for lv in mode["levels"] if (lv["evidence"]["host_cpu_pct"] or 0) >= 100 * CPU_SATURATED_RATIO]


def run_share_pct(level: dict) -> float:
    """The run's own processes (thread-service, delay-service, injector), in % of the machine."""
    ev = level["evidence"]
    return (ev["thread_cpu_pct"] + ev["other_roles_cpu_pct"]) / (ev["delay_cores"] or ev["injector_cores"])


def other_work_on_the_machine(summary: dict) -> str:
    """'' when the harness blamed the machine nowhere; else what it saw, after checking in the run's own samples
    that the machine really was saturated by work that was not the run's (a run this light that saturated the
    machine by itself fails here instead)."""
    seen = []
    for name, mode in summary["modes"].items():
        if not blamed_on_the_machine(mode):
            continue
        blamed = machine_blame(mode)
        busy = busy_levels(mode)
        assert busy, (name, blamed, [lv["evidence"] for lv in mode["levels"]])
        for lv in busy:
            assert run_share_pct(lv) <= RUN_SHARE_MAX_PCT, (name, lv["index"], lv["evidence"])
        seen.append(
            f"{name}: host CPU {max(lv['evidence']['host_cpu_pct'] for lv in busy):.0f}% while the run's own "
            f"processes used at most {max(run_share_pct(lv) for lv in busy):.0f}% ({blamed[0]})"
        )
    return "; ".join(seen)


def level_windows(run_dir, folder: str, numbers) -> list[tuple[float, float]]:
    """The epoch seconds (start, end) of a pass's levels (summary.json's `index`, counted from 1), from the injector's
    own meta.json (its `index` counts from 0, as the simulation numbers its levels)."""
    meta = json.loads((run_dir / folder / "raw" / "injector-0" / "meta.json").read_text())
    levels = meta["levels"]
    return [(lv["start_epoch_ms"] / 1000, lv["end_epoch_ms"] / 1000) for lv in levels if lv["index"] + 1 in numbers]


def pass_window(run_dir, mode: str, name: str) -> list[tuple[float, float]]:
    """A fine pass's levels, each a window."""
    meta = json.loads((run_dir / mode / name / "raw" / "injector-0" / "meta.json").read_text())
    return [(lv["start_epoch_ms"] / 1000, lv["end_epoch_ms"] / 1000) for lv in meta["levels"]]


def machine_excuse(summary: dict, run_dir, watch: HostWatch) -> str:
    """'' unless the harness blamed the machine for a mode and the test's own reading of the host over the levels
    it blamed shows the machine saturated by work that was not the run's."""
    windows = []
    for name, mode in summary["modes"].items():
        if blamed_on_the_machine(mode):
            windows += level_windows(run_dir, name, {lv["index"] for lv in busy_levels(mode)})
    return watch.saturated_by_others(windows) if windows else ""


def test_max_connections_reaches_tomcat_in_both_modes(tiny_run):
    """The value the service itself reports (/actuator/loadlab, kept in raw/thread/config.json), not what was asked."""
    _, run_dir, _ = tiny_run
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["params"]["MAX_CONNECTIONS"] == 600
    for mode in ("platform", "virtual"):
        live = json.loads((run_dir / mode / "raw" / "thread" / "config.json").read_text())
        assert live["tomcat_max_connections"] == 600, (mode, live)
        assert summary["modes"][mode]["live_config"]["tomcat_max_connections"] == 600


def test_run_folder_matches_the_contract(tiny_run):
    _, run_dir, _ = tiny_run
    assert run_dir.parent.joinpath("latest").is_symlink()
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["run_id"] == run_dir.name and summary["target"] == "local"
    assert summary["params"]["PLATFORM_THREADS"] == 8 and summary["params"]["DELAY_MS"] == 200
    # the delay-service met the first measured level warm: its cold answers were spent on the warm-up
    warmup = json.loads((run_dir / "params.json").read_text())["delay_warmup"]
    assert warmup["rounds"] >= 3 and warmup["last_p90_ms"] <= warmup["wait_ms"] + 2 * delay_allowance_ms(100), warmup
    for mode in ("platform", "virtual"):
        m = summary["modes"][mode]
        for key in (
            "sustained_rps",
            "collapsed",
            "predicted_rps",
            "baseline_p50_ms",
            "p99_ms_at_sustained",
            "requests",
            "errors",
            "valid",
            "invalid_reasons",
        ):
            assert key in m, (mode, key)
        assert 200 <= m["baseline_p50_ms"] <= 260, m
        with open(run_dir / mode / "timeline.csv") as f:
            rows = list(csv.reader(f))
        assert rows[0] == TIMELINE_COLUMNS
        assert len(rows) > 5
        assert sum(int(r[2]) + int(r[3]) for r in rows[1:]) == m["requests"]
        assert (run_dir / mode / "server.csv").stat().st_size > 0
        # Each level's spectrum as HdrHistogram's text (contract turn 4), holding the level's successful requests.
        for level in (lv for lv in m["levels"] if lv["ok"]):
            hgrm_file = run_dir / mode / "hgrm" / f"level-{level['index']:02d}-{level['target_rps']:g}rps.hgrm"
            assert hgrm.read(hgrm_file).total_count == level["ok"], hgrm_file
        assert (run_dir / mode / "percentiles.csv").stat().st_size > 0
        reports = list((run_dir / mode / "gatling").glob("*/*/index.html"))
        assert reports, f"no Gatling HTML report for {mode}"
    assert (run_dir / "index.html").stat().st_size > 0
    logs = {p.name for p in (run_dir / "logs").iterdir()}
    assert {"delay-service.log", "platform-thread-service.log", "virtual-thread-service.log"} <= logs


def test_nothing_is_left_running_after_a_run(tiny_run):
    assert ports_free(8080, 8081, 8090)
    left = subprocess.run(
        ["pgrep", "-f", "thread-service.jar|delay-service.jar|loadlab.gatling.simulation.ForwardSimulation"],
        capture_output=True,
        text=True,
    ).stdout.split()
    assert not left, f"processes left behind: {left}"


def test_ctrl_c_stops_every_process_frees_ports_and_keeps_results(tmp_path):
    results = tmp_path / "results"
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL")}
    # Ctrl-C comes after level 1, with 4 levels still ahead; levels of 2 s after a 1 s warm-up: what is stopped and
    # what is kept do not depend on how long the load ran. The recorded distribution's one real run rides here
    # (RECORDED: its delays are a few ms, so the pool is never the limit) and is read from what Ctrl-C kept.
    env.update(
        {**TINY, "WARMUP_SECONDS": "1", "STEP_SECONDS": "2", "RESULTS_DIR": str(results), "DELAY_DIST": RECORDED}
    )
    proc = subprocess.Popen(
        ["make", "--no-print-directory", "bench"],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        # A user's Ctrl-C reaches a bench whose SIGINT is not ignored; a test started in the background of a
        # non-interactive shell would pass its ignored SIGINT on to make and the harness, and nothing would stop.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    seen, reached = [], False
    deadline = time.monotonic() + 240  # a bound on waiting for the event below, never a measured time
    for line in proc.stdout:  # wait until the platform load has measured a level, then press Ctrl-C
        seen.append(line)
        reached = "[platform]" in line and " level 1/" in line
        if reached or time.monotonic() > deadline:
            break
    os.killpg(proc.pid, signal.SIGINT)
    out, _ = proc.communicate(timeout=180)
    text = "".join(seen) + out
    assert reached, "platform's level 1 never began within 240 s, so Ctrl-C came at no known point:\n" + text[-2000:]
    assert proc.returncode != 0
    assert "interrupted" in text, text[-2000:]
    run_dir = (results / "latest").resolve()
    assert (run_dir / "params.json").is_file()
    assert list((run_dir / "platform" / "raw").glob("injector-0/seconds.csv")), "results written so far were lost"
    assert (run_dir / "index.html").is_file() and "virtual" in json.loads((run_dir / "summary.json").read_text()).get(
        "missing_modes", []
    )
    assert ports_free(8080, 8081, 8090)
    left = subprocess.run(
        ["pgrep", "-f", "thread-service.jar|delay-service.jar|loadlab.gatling.simulation.ForwardSimulation"],
        capture_output=True,
        text=True,
    ).stdout.split()
    assert not left, f"processes left behind: {left}"
    # The delay-service replayed the recording, by its own record of the first level (kept): a median within the
    # served check's 20 ms floor of the recorded 5 ms (CI saw 13 ms, the service just started) and a tail past
    # 15 ms, as recorded (p50 5, p90 20, p99 51 ms); a constant delay (200 ms) has neither. 17.5% of the
    # recording lies past 15 ms: none of 50 answers there has a chance under 0.01%. Nothing in the record is far
    # beyond the recording's 82 ms: the probe's answers at DELAY_MS (200 ms) are not the distribution served.
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["downstream"]["distribution"].startswith("recorded"), summary["downstream"]
    served = [lv["served_ms"] for lv in summary["modes"]["platform"]["levels"] if lv["served_ms"]]
    assert served, summary["modes"]["platform"]["levels"]
    assert served[0]["p50"] <= 5 + 20 and 15 <= served[0]["p99"] and served[0]["p99.9"] <= 82 + 40, served
