"""SERVICE_MEMORY_MB on the run's service host: its cgroup's memory limit (infra/host/lib/cgroups.bash, host_limits,
which makes the service's heap half of it), handed to that host's loadlab-host before anything starts, so the
service, its recording's limits.json and every reading of the host's limits agree; what params.json records."""

from __future__ import annotations

from loadlab.core import guards
from loadlab.run import console
from loadlab.run.topology import Topology


def apply(mb: int | None, topo: Topology) -> dict[str, int] | None:
    """mb: SERVICE_MEMORY_MB. The bound for params.json (`service_memory`), said on the console; None when the service
    has the host's share, as without it. An out-of-memory end inside it is a crash named by it
    (summary/judge/crash.py)."""
    if mb is None:
        return None
    topo.thread.env[guards.SERVICE_MEMORY_ENV] = str(mb)
    heap = mb // 2
    console.step(f"SERVICE_MEMORY_MB={mb}: the service in a memory cgroup of {mb} MB, its heap at most {heap} MB")
    return {"memory_mb": mb, "heap_max_mb": heap}
