"""Causing a role's starvation on a real run, on the mode's own schedule: LOADLAB_FAULT_CPU_QUOTA
(infra/host/loadlab-host) puts a started process in a CPU cgroup capped at a few percent of one core while a file of
the host's state folder exists. The test opens each window when its mode's schedule begins (the injector's meta.json
is written with its anchor: its JVM is up, the warm-up starts) and closes it once that schedule's last level has
ended, so the JVMs boot, and Gatling writes its report, at full speed however long either takes on this machine."""

import csv
import json
import os
import subprocess
import time
from pathlib import Path

import pytest
from conftest import REPO

STATE = REPO / ".loadlab" / "state" / "local"


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


def bench_with_windows(
    env: dict[str, str], results: Path, starved_in: dict[str, str]
) -> tuple[subprocess.CompletedProcess[str], dict[str, list[str]]]:
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


def seconds_rows(run_dir: Path, mode: str) -> list[dict[str, str]]:
    with open(run_dir / mode / "raw" / "injector-0" / "seconds.csv") as f:
        return [row for row in csv.DictReader(f) if row["phase"] == "measure" and int(row["level"]) >= 0]


def no_fault_cgroup_left() -> bool:
    roots = [Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/unified")]
    return not [p for root in roots if root.is_dir() for p in root.glob("loadlab-fault-*")]
