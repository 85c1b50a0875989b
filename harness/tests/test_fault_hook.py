"""The test-only starvation hook of infra/host/loadlab-host (LOADLAB_FAULT_CPU_QUOTA), which test_e2e_faults.py uses
to starve one role in one mode of a run: `NAME#N=` must reach the N-th start of NAME only, counted from the last
stop-all (every run begins with one), and nothing else."""

import os
import subprocess

from test_e2e_faults import needs_cgroup, no_fault_cgroup_left
from test_watch import HOST_SCRIPTS

SCRIPT = str(HOST_SCRIPTS / "loadlab-host")


@needs_cgroup
def test_a_fault_on_the_second_start_reaches_that_start_only(tmp_path):
    env = {**os.environ, "LOADLAB_STATE": str(tmp_path), "LOADLAB_FAULT_CPU_QUOTA": "sleeper#2=50@30"}
    host = lambda *args: subprocess.run([SCRIPT, *args], env=env, check=True, capture_output=True, text=True)
    capped = []
    try:
        for start in (1, 2, 3, "after stop-all"):
            if start == "after stop-all":
                host("stop-all", "2")
            host("start", "sleeper", str(tmp_path / "sleeper.log"), "--", "sleep", "30")
            capped.append((tmp_path / "sleeper.cgroup").exists())
            host("stop", "sleeper", "2")
    finally:
        subprocess.run([SCRIPT, "stop-all", "2"], env=env, capture_output=True)
    assert capped == [False, True, False, False]
    assert no_fault_cgroup_left()


def test_a_malformed_fault_is_refused_with_its_form(tmp_path):
    env = {**os.environ, "LOADLAB_STATE": str(tmp_path), "LOADLAB_FAULT_CPU_QUOTA": "sleeper#2=half"}
    for _ in (1, 2):
        r = subprocess.run(
            [SCRIPT, "start", "sleeper", str(tmp_path / "s.log"), "--", "true"], env=env, capture_output=True, text=True
        )
        subprocess.run([SCRIPT, "wait", "sleeper", "10"], env=env, capture_output=True)
    assert r.returncode == 2 and "is not NAME[#N]=PERCENT[@FROM_S[-UNTIL_S]]" in r.stderr, r.stderr
