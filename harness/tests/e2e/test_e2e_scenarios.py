"""End to end on this machine, one tiny run per scenario where virtual threads are NOT expected to win, and the JDK
21 vs 25 pinning run. Each is a real `make bench` (real services, Gatling, PostgreSQL, JDKs) with stairs around the
model's knee, levels placed off the knee itself so a run is not a coin toss:

- db: DB_POOL=2, DELAY_MS=100 → 2 connections / ≈ 0.1 s ≈ 20 rps for BOTH modes (levels 9, 13, 17, 21, 25). It
  also carries SERVICE_CPUS=1 (the pool, not the CPU, is its limit): while it runs every JVM of this checkout is
  read from /proc, and the thread-service must be alone on the last core, Gatling and the delay-service on the
  other, its JVM must have seen one processor, and nothing of the split may be left behind.
- cpu: CPU_MS=20 on 2 cores → a CPU ceiling of ≈ 65-90 rps once the framework's and the other roles' CPU per
  request are counted (how much work 20 ms is comes from the service's calibration at start-up), for both modes
  (levels 30, 45 … 120: 2 cores cannot do 100 requests of 20 ms a second, so the last level is beyond any
  ceiling). Requests queue for a core before it is 100% busy, so the knee (p99 within twice the baseline) comes
  below the ceiling.
- pinned on JDKS="21 25", virtual only, DELAY_MS=200: JDK 21 pins its 2 carriers → ≈ 10 rps; JDK 25 (JEP 491) does
  not pin and stays healthy beyond twice that (levels 8, 24, 40; 40 held here, but on CI's machine JDK 25's
  stairs have ended at 24 once, not collapsed: the claim is the wide margin, 24 ≥ 2 × 10).

After each: no PostgreSQL process and no data directory left (the run's cluster lives in /tmp until its stop).
"""

import hashlib
import json
import subprocess
import threading
import time
from pathlib import Path

import pytest
from conftest import REPO, make
from leftovers import cgroups_left

from loadlab.core import servicecpus

pytestmark = pytest.mark.e2e

COMMON = {
    "TARGET": "local",
    "PROFILE": "stairs",
    "STEPS": "5",
    "STEP_SECONDS": "4",
    "WARMUP_SECONDS": "4",
    "INJECTORS": "1",
    "REFINE": "0",  # the refinement pass is tested on the tiny local run; here it would only cost time
    "JDKS": "25",
    "CPU_MS": "0",
    "PLATFORM_THREADS": "200",
}
DB = {
    **COMMON,
    "SCENARIO": "db",
    "MODES": "platform virtual",
    "DB_POOL": "2",
    "DELAY_MS": "100",
    "START_RPS": "9",
    "PEAK_RPS": "25",
    "STEP_SECONDS": "3",
    "SERVICE_CPUS": "1",
}
# A fresh JVM compiles for its first ~10 s on both cores (MACHINE-NOTES): the warm-up must cover it, or the first
# measured level of a CPU-bound run inherits its backlog.
CPU = {
    **COMMON,
    "SCENARIO": "cpu",
    "MODES": "platform virtual",
    "CPU_MS": "20",
    "DELAY_MS": "100",
    "START_RPS": "30",
    "PEAK_RPS": "120",
    "STEPS": "7",
    "WARMUP_SECONDS": "12",
}
PINNED = {
    **COMMON,
    "SCENARIO": "pinned",
    "MODES": "virtual",
    "JDKS": "21 25",
    "DELAY_MS": "200",
    "START_RPS": "8",
    "PEAK_RPS": "40",
    "STEPS": "3",
}
# CLIENT=apache as Spring Boot builds it: Apache HttpClient 5's pool of 5 connections per route, each held for one
# 100 ms call, caps virtual threads at 50 rps (issue 43: the limit teams meet right after the switch).
APACHE = {
    **COMMON,
    "SCENARIO": "http",
    "MODES": "virtual",
    "CLIENT": "apache",
    # 5 connections / 0.2 s = 25 rps. At 100 ms (50 rps, stairs to 80) 2026-12-02's slow machine ran the host at 88%
    # by 40 rps, and that level's tail crossed the limit before the pool did.
    "DELAY_MS": "200",
    "START_RPS": "10",
    "PEAK_RPS": "40",
    "STEPS": "4",
}

# SCENARIO=fanout: 4 calls of 100 ms per request. Platform's executor of 8 threads holds one thread per call: 8 / (4 x
# 0.1 s) = 20 rps, while Tomcat's 200 threads would allow 2,000 and virtual threads run the calls on one virtual thread
# each (levels 8 … 40). Past 20 rps the executor's queue grows, requests pass their 400 ms deadline (504) and leave
# their queued calls running for nobody: the delay-service counts them; a scope cancels its calls, so virtual leaves
# none behind.
FANOUT = {
    **COMMON,
    "SCENARIO": "fanout",
    "MODES": "platform virtual",
    "FANOUT": "4",
    # 4 executor threads / (4 calls x 0.1 s) = 10 rps; the stairs to 20, twice that. At 8 threads (20 rps, stairs to
    # 40) 2026-12-02's slow machine ran out of CPU first: host 84% at 16 rps, virtual unhealthy at 40 with it at 92%.
    "FANOUT_POOL": "4",
    "FANOUT_TIMEOUT_MS": "400",
    "DELAY_MS": "100",
    "START_RPS": "4",
    "PEAK_RPS": "20",
}


def bench(env: dict, tmp_path, cores_seen: dict | None = None) -> tuple[subprocess.CompletedProcess, dict]:
    started = time.time()
    results = tmp_path / "results"
    stop = threading.Event()
    watcher = threading.Thread(target=allowed_cores_by_role, args=(cores_seen, stop), daemon=True)
    if cores_seen is not None:
        watcher.start()
    try:
        r = make("bench", env={**env, "RESULTS_DIR": str(results)}, timeout=600)
    finally:
        stop.set()
        if cores_seen is not None:
            watcher.join()
    assert (results / "latest").exists(), r.stdout[-3000:] + r.stderr[-3000:]
    summary = json.loads((results / "latest" / "summary.json").read_text())
    assert_nothing_of_postgres_left(started)
    return r, summary


ROLES = {"thread-service": "thread-service.jar", "delay-service": "delay-service.jar", "gatling": "io.gatling.app"}


def allowed_cores_by_role(seen: dict[str, set[str]], stop: threading.Event) -> None:
    """Polls /proc for this checkout's JVMs (their command line names its .loadlab) and their allowed cores."""
    mine = str(REPO / ".loadlab")
    while not stop.wait(0.5):
        for proc in Path("/proc").glob("[0-9]*"):
            try:
                cmd = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                if mine not in cmd or not cmd.split(" ", 1)[0].endswith("java"):
                    continue
                cores = next(
                    line.split(":", 1)[1].strip()
                    for line in (proc / "status").read_text().splitlines()
                    if line.startswith("Cpus_allowed_list")
                )
            except (OSError, StopIteration):
                continue
            for role, marker in ROLES.items():
                if marker in cmd:
                    seen.setdefault(role, set()).add(cores)


def own_pg_scratch() -> str:
    """The folder of this checkout's local cluster, named as loadlab-host's pg_scratch names it: other PostgreSQL
    servers on the machine (another checkout's run, a JUnit test's) are not this run's to clean up."""
    state = (REPO / ".loadlab" / "state" / "local").resolve()
    return f"/tmp/loadlab-pg-local-{hashlib.md5((str(state) + chr(10)).encode()).hexdigest()[:12]}"


def assert_nothing_of_postgres_left(since: float) -> None:
    scratch = own_pg_scratch()
    servers = subprocess.run(["pgrep", "-a", "-x", "postgres"], capture_output=True, text=True).stdout.splitlines()
    left = [line for line in servers if f"-D {scratch}/" in line]
    assert not left, f"PostgreSQL processes left behind: {left}"
    # A data directory holds PG_VERSION; the run's own (in /tmp, loadlab-host's pg_scratch) is removed by its stop.
    found = subprocess.run(
        ["find", "/tmp", "/var/lib/postgresql", str(REPO), "-name", "PG_VERSION", "-newermt", f"@{since:.0f}"],
        capture_output=True,
        text=True,
    ).stdout.split()
    found = [f for f in found if f.startswith((scratch, str(REPO), "/var/lib/postgresql"))]
    assert not found, f"PostgreSQL data directories left behind: {found}"


def within(value: float, expected: float, tolerance: float) -> bool:
    return abs(value / expected - 1) <= tolerance


@pytest.mark.extended  # outside make test's budget (docs/TESTS.md): `make test-extended`
def test_db_pool_limits_both_modes_alike_with_the_service_on_a_core_of_its_own(tmp_path):
    seen: dict[str, set[str]] = {}
    r, summary = bench(DB, tmp_path, seen)
    assert summary["scenario"] == "db"
    platform, virtual = summary["modes"]["platform"], summary["modes"]["virtual"]
    for name, m in (("platform", platform), ("virtual", virtual)):
        assert m["predicted_by"] == "pool" and m["prediction"].startswith("pool: "), (name, m["prediction"])
        assert within(m["predicted_rps"], 20, 0.25), (name, m["prediction"])
        assert m["collapsed"] and within(m["sustained_rps"], 2 * 1000 / 100, 0.25), (name, m["levels"])
        assert m["db_pool"]["size"] == 2 and m["db_pool"]["pending_max"] >= 1, (name, m["db_pool"])
        # the wait profile names the pool by its class, from thread dumps alone (virtual threads included)
        assert "HikariCP's connection pool" in m["waits_at_knee"], (name, m["waits_at_knee"])
    assert virtual["sustained_rps"] <= 1.3 * platform["sustained_rps"]
    assert "virtual threads were not expected to win" in (tmp_path / "results" / "latest" / "index.html").read_text()
    assert_the_service_alone_on_its_core(tmp_path / "results" / "latest", summary, seen)


def assert_the_service_alone_on_its_core(run_dir: Path, summary: dict, seen: dict[str, set[str]]) -> None:
    """SERVICE_CPUS=1: what a user would notice is that the service's JVM saw one processor, the other roles never
    ran on its core, and nothing of the split is left."""
    expected = servicecpus.split(1, servicecpus.machine_cpus())
    service, others = ",".join(map(str, expected.service_set)), ",".join(map(str, expected.others_set))
    assert seen.get("thread-service") == {service}, seen
    assert seen.get("delay-service") == {others}, seen
    assert seen.get("gatling") == {others}, seen
    recorded = json.loads((run_dir / "params.json").read_text())
    assert recorded["params"]["SERVICE_CPUS"] == 1
    assert recorded["cpu_split"]["service_set"] == list(expected.service_set)
    config = json.loads((run_dir / "virtual" / "raw" / "thread" / "config.json").read_text())
    assert config["virtual_scheduler_parallelism"] == 1
    assert summary["modes"]["virtual"]["carriers"] == 1
    left = cgroups_left()
    assert not left, left


@pytest.mark.extended  # outside make test's budget (docs/TESTS.md): `make test-extended`
def test_cpu_work_limits_both_modes_alike(tmp_path):
    r, summary = bench(CPU, tmp_path)
    platform, virtual = summary["modes"]["platform"], summary["modes"]["virtual"]
    for name, m in (("platform", platform), ("virtual", virtual)):
        assert m["predicted_by"] == "cpu", (name, m["prediction"])
        # queueing for the cores moves the knee below the prediction (90% of the cores; seen: 45-60 of 59-70), not
        # to half of it. The knee lies between the last level held and the first that broke, 15 rps apart: the first
        # that broke must be above half the prediction (CI once saw platform's 200 time-sliced threads cross the p99
        # limit at 45 of 70, its knee in 30-45). Its upper side is the every-core-busy ceiling, below.
        broke = next(level["target_rps"] for level in m["levels"] if not level["healthy"] and not level["set_aside"])
        assert m["collapsed"] and broke >= 0.55 * m["predicted_rps"], (name, m["prediction"], m["levels"])
        # where the requests were at the knee: on the cores or waiting for one (platform threads time-sliced by the
        # kernel, virtual threads queued for the two carriers)
        at_knee = m["waits_at_knee"] or ""
        assert "running on a CPU" in at_knee or "ready to run" in at_knee, (name, at_knee)
    # The cores are the limit of both: the same ceiling, and no knee above it. The knees themselves may sit a level
    # apart (seen: platform 45, virtual 75 of a shared ceiling near 80): where the health rule's p99 is crossed
    # depends on how the cores are shared near saturation (the kernel time-slices 200 runnable platform threads;
    # two carriers run each virtual thread to its end), and these levels are 15 rps apart.
    ceilings = platform["cpu_ceiling_rps"], virtual["cpu_ceiling_rps"]
    assert all(ceilings) and 0.8 <= ceilings[1] / ceilings[0] <= 1.25, ceilings
    assert virtual["sustained_rps"] <= 1.15 * min(ceilings) and platform["sustained_rps"] <= 1.15 * min(ceilings)


@pytest.mark.extended  # outside make test's budget (docs/TESTS.md): `make test-extended`
def test_pinning_collapses_virtual_threads_on_jdk21_and_not_on_jdk25(tmp_path):
    r, summary = bench(PINNED, tmp_path)
    assert list(summary["modes"]) == ["virtual-jdk21", "virtual-jdk25"]
    on21, on25 = summary["modes"]["virtual-jdk21"], summary["modes"]["virtual-jdk25"]
    assert on21["live_config"]["java_version_feature"] == 21 and on25["live_config"]["java_version_feature"] == 25
    carriers = on21["carriers"] or 2
    assert on21["predicted_by"] == "pinned"
    assert on21["collapsed"] and within(on21["sustained_rps"], carriers * 1000 / 200, 0.40), on21["levels"]
    # JDK 21 pins on every request (seen: 140 events for 71 requests)
    assert on21["pinned_virtual_threads"] >= 0.5 * on21["requests"], (on21["pinned_virtual_threads"], on21["requests"])
    assert not on25["collapsed"] and on25["sustained_rps"] >= 2 * carriers * 1000 / 200, on25["levels"]
    # JEP 491 unpins a virtual thread blocked in `synchronized`, not one blocked while loading a class (a native frame
    # under it): JDK 25 may still count one or two as its first requests load the request path's classes (seen: 1
    # event for 289 requests, reading the runtime image under a contended monitor)
    assert on25["pinned_virtual_threads"] <= 0.02 * on25["requests"], (on25["pinned_virtual_threads"], on25["requests"])
    # The wait profile sees it from thread dumps: at JDK 21's knee its request threads were the carriers' pinned ones
    assert "pinned to its carrier" in on21["waits_at_knee"], on21["waits_at_knee"]
    assert on25["waits_at_knee"] is None, on25["waits_at_knee"]  # no knee on JDK 25: nothing to explain


def test_apaches_default_pool_caps_virtual_threads_and_the_profile_names_it(tmp_path):
    """CLIENT=apache at Spring Boot's default: 5 connections per route. The knee sits at the client pool's
    prediction, and the wait profile names the pool by its class with the 5 calls it let through."""
    r, summary = bench(APACHE, tmp_path)
    virtual = summary["modes"]["virtual"]
    assert summary["params"]["CLIENT"] == "apache", summary["params"]
    assert virtual["predicted_by"] == "client_pool" and within(virtual["predicted_rps"], 25, 0.15), virtual[
        "prediction"
    ]
    broke = next(lv["target_rps"] for lv in virtual["levels"] if not lv["healthy"] and not lv["set_aside"])
    assert virtual["collapsed"] and virtual["sustained_rps"] >= 20 and broke <= 30, virtual["levels"]
    at_knee = virtual["waits_at_knee"]
    assert "Apache HttpClient's connection pool (PoolingHttpClientConnectionManager)" in at_knee, at_knee
    assert "Apache HttpClient's connection pool" in virtual["limit_met_first"], virtual["limit_met_first"]
    closing = next(lv for lv in virtual["levels"] if lv["target_rps"] == broke)
    calls = [s["mean_requests"] for s in closing["waits"]["sites"] if s["site"] == "Apache HttpClient's call"]
    # about the pool's 5 connections in a call: a dump also catches a thread still in Apache's code after handing its
    # connection back while the next one reads (CI-like run: 5.12 over 8 dumps), never the dozens that wait
    assert calls and 3 <= calls[0] <= 6, closing["waits"]
    assert (tmp_path / "results" / "latest" / "virtual" / "waits" / "level-01.folded").is_file()


def test_fan_out_meets_platforms_executor_first_and_only_futures_leave_calls_behind(tmp_path):
    """The fan-out's second pool: platform's executor is its limit (predicted, met), virtual threads in a structured
    scope hold the top; past the knee platform's requests end at their deadline with calls still queued, which the
    delay-service then answers for nobody, while the scope leaves none."""
    r, summary = bench(FANOUT, tmp_path)
    platform, virtual = summary["modes"]["platform"], summary["modes"]["virtual"]
    assert platform["predicted_by"] == "executor" and within(platform["predicted_rps"], 10, 0.15), platform[
        "prediction"
    ]
    broke = next(lv["target_rps"] for lv in platform["levels"] if not lv["healthy"] and not lv["set_aside"])
    assert platform["collapsed"] and broke <= 16, platform["levels"]
    # 20 held is twice the executor's 10: the wide margin, not the point
    assert not virtual["collapsed"] and virtual["sustained_rps"] >= 18, virtual["levels"]
    assert platform["fanout"]["shape"] == "platform-executor" and platform["fanout"]["executor_threads"] == 4
    assert virtual["fanout"]["shape"] == "structured-scope", virtual["fanout"]
    assert platform["fanout"]["orphaned_calls"] > 0, platform["fanout"]
    assert virtual["fanout"]["orphaned_calls"] == 0, virtual["fanout"]
    page = (tmp_path / "results" / "latest" / "index.html").read_text()
    assert "One request, N calls" in page and "a StructuredTaskScope per request" in page
