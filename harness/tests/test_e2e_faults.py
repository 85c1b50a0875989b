"""The validity verdict on a real run that causes each problem on purpose, and on one that causes none.

One run, two modes, one fault each (LOADLAB_FAULT_CPU_QUOTA, infra/host/loadlab-host: a started process put in a
CPU cgroup and capped at a few percent of one core while a file of the host's state folder exists). The test opens
each window when its mode's schedule begins (the injector's meta.json is written `running`: its JVM is up, the
warm-up starts) and closes it once that schedule's last level has ended, so the JVMs boot, and Gatling writes its
report, at full speed however long either takes on this machine:
- virtual, first: the delay-service starved while virtual measures (the delay-service starts once, before it);
- platform, second, with a pool far above these rates: its injector starved (`#2`: the run's second Gatling).
Each mode must be flagged for its own fault and not for the other's. Two levels of 4 s at 40..80 rps per mode.
"""

import csv
import json
import os
import subprocess
import time
from pathlib import Path

import pytest
from claims import HostWatch, claim
from conftest import REPO, blamed_on_the_machine
from test_e2e_local import busy_levels, level_windows

pytestmark = pytest.mark.e2e

TINY = {
    "TARGET": "local",
    "MODES": "virtual platform",
    "PLATFORM_THREADS": "200",  # 40 threads would do at 80 rps of 200 ms: platform has no knee here to confuse
    "DELAY_MS": "200",
    "PROFILE": "stairs",
    "START_RPS": "40",
    "PEAK_RPS": "80",
    "STEPS": "2",
    "STEP_SECONDS": "4",
    "WARMUP_SECONDS": "3",
    "INJECTORS": "1",
    "REFINE": "0",  # the refinement pass is tested on the tiny local run; here it would only cost time
}
STARVED_INJECTOR = "gatling-injector-0#2=3@file"  # platform's Gatling only
STARVED_DELAY = "delay-service=3@file"
# mode → the process starved while that mode's schedule runs (its window file in the local host's state folder)
STARVED_IN = {"virtual": "delay-service", "platform": "gatling-injector-0"}
STATE = REPO / ".loadlab" / "state" / "local"
BUSY = "another `make bench` is running"


def cgroup_usable() -> bool:
    if os.geteuid() != 0:
        return False
    if os.access("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", os.F_OK):
        return True
    return any(
        "cpu" in Path(root, "cgroup.controllers").read_text().split()
        for root in ("/sys/fs/cgroup", "/sys/fs/cgroup/unified")
        if Path(root, "cgroup.controllers").is_file()
    )


needs_cgroup = pytest.mark.skipif(not cgroup_usable(), reason="starving a process needs root and a CPU cgroup")


def bench(results: Path, **changes):
    """`make bench` as a user runs it, opening and closing each fault's window on its mode's schedule; waits its turn
    while someone else's bench holds the machine."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "TARGET", "MODES")}
    env.update({**TINY, **changes, "RESULTS_DIR": str(results)})
    started = time.monotonic()
    while True:
        with HostWatch() as watch:  # the host's own counters, read by this test (claims.py)
            r, windows = bench_with_windows(env, results)
        if BUSY not in r.stderr or time.monotonic() > started + 600:
            break
        time.sleep(10)
    assert BUSY not in r.stderr, "another bench held the machine for 10 minutes"
    # each fault really covered its mode: a window never opened or closed would prove nothing about the verdict
    assert windows == {mode: ["opened", "closed"] for mode in STARVED_IN}, (windows, r.stdout[-2000:])
    run_dir = (results / "latest").resolve()
    summary = json.loads((run_dir / "summary.json").read_text())
    return r, summary, run_dir, watch


def bench_with_windows(
    env: dict, results: Path, starved_in: dict[str, str] = STARVED_IN
) -> tuple[subprocess.CompletedProcess, dict]:
    """starved_in: the mode's folder in the run (`platform`, `rep-2/platform-t8`) → the process starved while that
    mode's schedule runs."""
    measured_ms = int(env["STEPS"]) * int(env["STEP_SECONDS"]) * 1000
    logs = results.parent / f"{results.name}-make"
    logs.mkdir(exist_ok=True)
    with open(logs / "out", "w") as out, open(logs / "err", "w") as err:
        proc = subprocess.Popen(["make", "--no-print-directory", "bench"], cwd=REPO, env=env, stdout=out, stderr=err)
    windows: dict[str, list[str]] = {}
    try:
        while proc.poll() is None:
            for mode, name in starved_in.items():
                window_event(results, mode, STATE / f"{name}.fault-on", windows.setdefault(mode, []), measured_ms)
            time.sleep(0.2)
    finally:
        proc.wait(timeout=400)
        for name in starved_in.values():
            (STATE / f"{name}.fault-on").unlink(missing_ok=True)
    done = subprocess.CompletedProcess(
        proc.args, proc.returncode, (logs / "out").read_text(), (logs / "err").read_text()
    )
    return done, {mode: events for mode, events in windows.items() if events}


def window_event(results: Path, mode: str, window: Path, events: list[str], measured_ms: int) -> None:
    """Opens the window once the mode's schedule is anchored, closes it once its last level has ended."""
    try:
        meta = json.loads(((results / "latest").resolve() / mode / "raw" / "injector-0" / "meta.json").read_text())
    except (OSError, ValueError):
        return  # not this mode's turn yet (or the file is being rewritten)
    if not meta.get("measure_start_epoch_ms"):
        return
    if not events:
        window.touch()
        events.append("opened")
    ends_ms = meta["measure_start_epoch_ms"] + measured_ms
    if events == ["opened"] and time.time() * 1000 >= ends_ms:
        window.unlink(missing_ok=True)
        events.append("closed")


def seconds_rows(run_dir: Path, mode: str) -> list[dict]:
    with open(run_dir / mode / "raw" / "injector-0" / "seconds.csv") as f:
        return [row for row in csv.DictReader(f) if row["phase"] == "measure" and int(row["level"]) >= 0]


def no_fault_cgroup_left() -> bool:
    roots = [Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/unified")]
    return not [p for root in roots if root.is_dir() for p in root.glob("loadlab-fault-*")]


# The clean run that must NOT be flagged is test_e2e_local.py's tiny run (both modes, asserted valid there).


@pytest.fixture(scope="module")
def starved_run(tmp_path_factory):
    if not cgroup_usable():
        pytest.skip("starving a process needs root and a CPU cgroup")
    fault = f"{STARVED_DELAY},{STARVED_INJECTOR}"
    r, summary, run_dir, watch = bench(tmp_path_factory.mktemp("results"), LOADLAB_FAULT_CPU_QUOTA=fault)
    assert r.returncode != 0 and "INVALID" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]
    assert summary["test_fault"] == fault
    assert 'id="test-fault"' in (run_dir / "index.html").read_text()
    return summary, run_dir, watch


def test_a_starved_injector_falls_behind_and_is_flagged(starved_run):
    summary, run_dir, _ = starved_run
    reasons = summary["modes"]["platform"]["invalid_reasons"]
    assert any(x.startswith("the injector fell behind: it sent") for x in reasons), reasons
    # really behind its schedule, in the injector's own counts
    rows = seconds_rows(run_dir, "platform")
    assert sum(int(x["sent"]) for x in rows) < 0.8 * sum(int(x["target_rps"]) for x in rows), rows
    # the delay-service's fault had ended: it is not blamed in this mode
    assert not any(x.startswith("the delay-service") for x in reasons), reasons


def test_a_starved_delay_service_is_flagged(starved_run):
    summary, run_dir, watch = starved_run
    virtual = summary["modes"]["virtual"]
    reasons = virtual["invalid_reasons"]
    assert virtual["valid"] is False, virtual
    # On a machine saturated by other work a role's symptoms are reported as the machine's (analysis.validity):
    # that excuses the claim only on a workstation, and only when the test's own reading of the host agrees.
    excuse = ""
    if blamed_on_the_machine(virtual):
        windows = level_windows(run_dir, "virtual", {lv["index"] for lv in busy_levels(virtual)})
        excuse = watch.saturated_by_others(windows)
    claim(
        any(x.startswith("the delay-service was saturated: probed on its own host") for x in reasons)
        # the injector kept its schedule: the blame is on the delay-service alone
        and not any(x.startswith("the injector") for x in reasons),
        "the starved delay-service is named, and the injector is not",
        reasons,
        excuse,
    )


def test_no_fault_cgroup_is_left_after_the_run(starved_run):
    assert no_fault_cgroup_left()
