"""The thread host's limits: read from `loadlab-host limits` (the real script, on this machine), a pool that cannot
fit refused by the preflight in one line, and the thread and memory ceilings that follow."""

import os
import subprocess
from dataclasses import replace
from types import SimpleNamespace

import pytest
from test_preflight import checked as preflight_of

from loadlab.analysis import models, threadlimits
from loadlab.run import preflight
from loadlab.run.hosts import HOST_SCRIPTS

LIMITS = """cgroup=v1
pid_max=32768
threads_max=192730
max_map_count=65530
mem_total_mb=24105
service_pids_max=16384
service_pids_max_by=kernel.pid_max 32768 / 2
service_memory_max_mb=12052
service_memory_max_by=MemTotal 24105 MB / 2
"""


def test_the_host_script_derives_the_service_limits_from_this_hosts_own(tmp_path):
    out = subprocess.run(
        [str(HOST_SCRIPTS / "loadlab-host"), "limits"],
        env={**os.environ, "LOADLAB_STATE": str(tmp_path)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    limits = threadlimits.HostLimits.from_lines(out)
    with open("/proc/sys/kernel/pid_max") as f:
        assert limits.pid_max == int(f.read())
    # never more than half the host's pids, nor more threads than max_map_count lets one process map
    assert 0 < limits.service_pids_max <= limits.pid_max // 2
    assert limits.service_pids_max <= limits.max_map_count // 2
    assert 0 < limits.service_memory_max_mb <= limits.mem_total_mb // 2
    assert limits.service_pids_max_by and limits.service_memory_max_by
    # the heap follows the memory the service may use (a fixed -Xmx would end a virtual run the memory could hold)
    assert limits.service_heap_max_mb == limits.service_memory_max_mb // 2
    assert limits.service_heap_max_by


class ThreadHost:
    name = "local"

    def tool(self, *args, **kw):
        assert args == ("limits",)
        return LIMITS


def checked(**params) -> list[str]:
    pf = preflight_of(**params)
    pf.__dict__["hosts"] = (SimpleNamespace(thread=ThreadHost()), None)
    return preflight.check_thread_limits(pf)


def test_a_pool_that_cannot_fit_the_host_is_refused_before_the_run_in_one_line():
    assert checked(modes=("platform", "virtual"), platform_threads=(20000,)) == [
        "PLATFORM_THREADS=20000: a pool of 20,000 threads cannot fit the thread host: 16,384 threads for the service "
        "(pids.max of its cgroup: kernel.pid_max 32768 / 2) less 100 of the JVM's own leave room for 16,284: use at "
        "most 16284"
    ]
    assert checked(modes=("platform",), platform_threads=(16284,)) == []
    assert checked(modes=("virtual",), platform_threads=(20000,)) == []  # no platform pool to fit


def test_the_thread_ceiling_is_littles_law_with_the_threads_the_host_allows():
    limits = threadlimits.HostLimits.from_lines(LIMITS)
    x = models.Inputs(
        "platform",
        threads=20000,
        baseline_ms=200.0,
        host_request_threads=limits.request_threads,
        host_threads_limit=limits.describe_threads(),
    )
    c = next(p for p in models.applicable(x) if p.predicted_by == "threads")
    assert c.rps == pytest.approx(16284 * 5) and models.predict(x) == c  # a pool beyond the host: threads win
    assert c.formula.startswith("threads: 16,284 request threads (16,384 threads for the service")
    assert all(p.predicted_by != "threads" for p in models.applicable(replace(x, mode="virtual")))


def test_the_memory_ceiling_carries_the_interval_of_its_slope():
    def ceiling(slope, interval):
        return threadlimits.memory_ceiling(
            12052.0, "(MemTotal / 2)", 2052.0, "resident", slope, interval, (10.0, 400.0), 0.9, 4, 1000.0
        )

    c = ceiling(100.0, (50.0, 200.0))
    free_kb = 10_000 * 1024
    assert c.predicted_by == "memory" and c.rps == pytest.approx(free_kb / 100.0)
    assert c.interval == pytest.approx((free_kb / 200.0, free_kb / 50.0)) and c.fitted_on == (10.0, 400.0)
    assert c.formula.startswith("memory: (12,052 MB (MemTotal / 2) − 2,052 MB resident) / 100.0 KB per request")
    # a slope not told from zero leaves no upper end
    assert ceiling(100.0, (-5.0, 200.0)).interval[1] is None
    assert ceiling(0.0, None) is None
