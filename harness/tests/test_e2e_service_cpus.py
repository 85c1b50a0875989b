"""End to end with SERVICE_CPUS=1 on this machine: the thread-service alone on the last core, Gatling and the
delay-service (and the samplers) on the other, the way two hosts would split them.

A tiny virtual run, well below any knee; while it runs, every process of this checkout's run is read from /proc (its
allowed cores). What a user would notice: the service's JVM saw one processor (its virtual scheduler's parallelism,
from its live config), the other roles never ran on the service's core, and nothing of the split is left behind.
"""

import json
import threading
from pathlib import Path

import pytest
from conftest import REPO, make

from loadlab.core import servicecpus

pytestmark = pytest.mark.e2e

ONE_CORE = {
    "TARGET": "local",
    "MODES": "virtual",
    "DELAY_MS": "200",
    "START_RPS": "20",
    "PEAK_RPS": "40",
    "STEPS": "2",
    "STEP_SECONDS": "4",
    "WARMUP_SECONDS": "4",
    "REFINE": "0",
    "SERVICE_CPUS": "1",
}
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


@pytest.fixture(scope="module")
def one_core_run(tmp_path_factory):
    results = tmp_path_factory.mktemp("results")
    seen: dict[str, set[str]] = {}
    stop = threading.Event()
    watcher = threading.Thread(target=allowed_cores_by_role, args=(seen, stop), daemon=True)
    watcher.start()
    try:
        r = make("bench", env={**ONE_CORE, "RESULTS_DIR": str(results)}, timeout=600)
    finally:
        stop.set()
        watcher.join()
    return r, (results / "latest").resolve(), seen


def test_the_service_alone_on_the_last_core_and_every_other_role_off_it(one_core_run):
    r, run_dir, seen = one_core_run
    assert (run_dir / "summary.json").exists(), r.stdout + r.stderr
    expected = servicecpus.split(1, servicecpus.machine_cpus())
    service, others = ",".join(map(str, expected.service_set)), ",".join(map(str, expected.others_set))
    assert seen.get("thread-service") == {service}, seen
    assert seen.get("delay-service") == {others}, seen
    assert seen.get("gatling") == {others}, seen
    recorded = json.loads((run_dir / "params.json").read_text())
    assert recorded["params"]["SERVICE_CPUS"] == 1
    assert recorded["cpu_split"]["service_set"] == list(expected.service_set)


def test_the_services_jvm_saw_one_processor(one_core_run):
    _, run_dir, _ = one_core_run
    config = json.loads((run_dir / "virtual" / "raw" / "thread" / "config.json").read_text())
    assert config["virtual_scheduler_parallelism"] == 1
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["modes"]["virtual"]["carriers"] == 1


def test_no_cgroup_of_the_split_is_left_behind(one_core_run):
    left = [
        str(p) for c in ("cpuset", "cpu", "pids", "memory") for p in Path("/sys/fs/cgroup", c).rglob("loadlab-local-*")
    ]
    assert not left, left
