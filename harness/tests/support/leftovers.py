"""What a local run must not leave behind, looked for where that run puts it.

The host script makes the service's cgroups as children of its own cgroup in each v1 hierarchy (the root of the
unified one on v2), named `loadlab-local-<role>`. A shared machine can hold another session's cgroups of the same
name under another parent (a run killed with its session leaves an empty one there), and those are not this run's:
the search starts from this process's own cgroup, which the run's host script inherits.
"""

from __future__ import annotations

from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
CONTROLLERS = ("cpuset", "cpu", "pids", "memory")


def own_cgroup(controller: str) -> str:
    """This process's cgroup in CONTROLLER's v1 hierarchy ("" on the unified one), as /proc/self/cgroup says."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, names, path = line.split(":", 2)
        if controller in names.split(","):
            return path
    return ""


def cgroups_left(pattern: str = "loadlab-local-*") -> list[str]:
    """The run's cgroups still present below this process's own ones, every hierarchy."""
    roots = [CGROUP_ROOT / c / own_cgroup(c).lstrip("/") for c in CONTROLLERS if (CGROUP_ROOT / c).is_dir()]
    if (CGROUP_ROOT / "cgroup.controllers").is_file():
        roots.append(CGROUP_ROOT)
    return sorted({str(p) for root in roots if root.is_dir() for p in root.rglob(pattern)})
