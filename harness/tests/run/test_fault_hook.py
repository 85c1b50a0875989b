"""The test-only starvation hook of infra/host/loadlab-host (LOADLAB_FAULT_CPU_QUOTA), which fault_windows.py uses to
starve one role in one mode of a run: `NAME#N=` must reach the N-th start of NAME only, counted from the last
stop-all (every run begins with one), and nothing else."""

import os
import subprocess
from pathlib import Path

from conftest import wait_for
from fault_windows import needs_cgroup
from test_watch import HOST_SCRIPTS

SCRIPT = str(HOST_SCRIPTS / "loadlab-host")


@needs_cgroup
def test_a_fault_on_the_second_start_reaches_that_start_only(tmp_path):
    env = {**os.environ, "LOADLAB_STATE": str(tmp_path), "LOADLAB_FAULT_CPU_QUOTA": "sleeper#2=50@30"}
    host = lambda *args: subprocess.run([SCRIPT, *args], env=env, check=True, capture_output=True, text=True)
    capped, cgroups = [], set()
    try:
        for start in (1, 2, 3, "after stop-all"):
            if start == "after stop-all":
                host("stop-all", "2")
            host("start", "sleeper", str(tmp_path / "sleeper.log"), "--", "sleep", "30")
            record = tmp_path / "sleeper.cgroup"
            capped.append(record.exists())
            cgroups |= {Path(record.read_text().strip())} if record.exists() else set()
            host("stop", "sleeper", "2")
    finally:
        subprocess.run([SCRIPT, "stop-all", "2"], env=env, capture_output=True)
    assert capped == [False, True, False, False]
    # its own cgroup removed by `stop` (a bench's e2e fault run may hold others at the same time on this machine)
    assert len(cgroups) == 1 and not any(c.exists() for c in cgroups), cgroups


def test_a_malformed_fault_is_refused_with_its_form(tmp_path):
    env = {**os.environ, "LOADLAB_STATE": str(tmp_path), "LOADLAB_FAULT_CPU_QUOTA": "sleeper#2=half"}
    for _ in (1, 2):
        r = subprocess.run(
            [SCRIPT, "start", "sleeper", str(tmp_path / "s.log"), "--", "true"], env=env, capture_output=True, text=True
        )
        subprocess.run([SCRIPT, "wait", "sleeper", "10"], env=env, capture_output=True)
    assert r.returncode == 2 and "is not NAME[#N]=PERCENT[@FROM_S[-UNTIL_S]]" in r.stderr, r.stderr


def quota_of(cgroup: Path) -> str:
    """The cgroup's CPU quota as set: `-1`/`max` for none, else the microseconds of each period."""
    v1 = cgroup / "cpu.cfs_quota_us"
    return v1.read_text().strip() if v1.exists() else (cgroup / "cpu.max").read_text().split()[0]


@needs_cgroup
def test_a_fault_on_file_holds_while_its_file_exists(tmp_path):
    """`NAME=PERCENT@file`: the window a test opens and closes on the events it waits for."""
    env = {**os.environ, "LOADLAB_STATE": str(tmp_path), "LOADLAB_FAULT_CPU_QUOTA": "sleeper=50@file"}
    host = lambda *args: subprocess.run([SCRIPT, *args], env=env, check=True, capture_output=True, text=True)
    window = tmp_path / "sleeper.fault-on"
    try:
        host("start", "sleeper", str(tmp_path / "sleeper.log"), "--", "sleep", "300")
        cgroup = Path((tmp_path / "sleeper.cgroup").read_text().strip())
        assert quota_of(cgroup) in ("-1", "max")  # not before the window opens
        window.touch()
        wait_for(lambda: quota_of(cgroup) == "500000", "the quota applied once the file exists")
        window.unlink()
        wait_for(lambda: quota_of(cgroup) in ("-1", "max"), "the quota lifted once the file is gone")
        host("stop", "sleeper", "2")
    finally:
        subprocess.run([SCRIPT, "stop-all", "2"], env=env, capture_output=True)
    assert not cgroup.exists()
    log = (tmp_path / "sleeper.log").read_text()
    assert log.index("quota 50% of one core applied") < log.index("quota lifted"), log
