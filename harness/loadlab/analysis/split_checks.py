"""SERVICE_CPUS: each side of the split judged on its own cores (validity.py calls these with its saturation ratio).

The delay-service and the injectors filling the cores left to them make the run untrustworthy (a reason); the service
filling its own at the knee is what the split is for (a note): its knee is its own CPU, as on a host of its own.
"""

from __future__ import annotations

from loadlab.analysis.levels import Level, level_number
from loadlab.core.servicecpus import CpuSplit


def others_saturated(level: Level, split: CpuSplit | None, ratio: float) -> str | None:
    """SERVICE_CPUS: the delay-service and the injectors together filled the cores left to them."""
    used = level.evidence.other_roles_cpu_pct
    if split is None or used is None or used < ratio * split.other_cores * 100:
        return None
    return (
        f"the other roles' cores were saturated: the delay-service and the injectors used {used:.0f}% of one core, "
        f"{used / split.other_cores:.0f}% of the {split.other_cores} core(s) SERVICE_CPUS left them "
        f"(limit {ratio:.0%})"
    )


def service_saturated(level: Level, split: CpuSplit, ratio: float) -> str | None:
    """SERVICE_CPUS: the service filled its own cores at the knee: the knee is its CPU, the run stays valid."""
    used = level.evidence.thread_cpu_pct
    if used is None or used < ratio * split.service_cpus * 100:
        return None
    return (
        f"the service used {used:.0f}% of one core at the first unhealthy level {level_number(level.position)} "
        f"({level.target_rps:.0f} rps), {used / split.service_cpus:.0f}% of the {split.service_cpus:g} core(s) of "
        f"its own: this knee is the service's own CPU, the other roles had cores of their own"
    )
