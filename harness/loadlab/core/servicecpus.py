"""SERVICE_CPUS: the service under test on cores of its own, the other roles on the rest, the way separate hosts
would split them. One rule, here: which cores each side gets, the CPU quota of a fraction, and what the analysis
counts as each side's cores. Standard library only (params.py runs before .venv exists).

A whole number N puts the service alone on the LAST N cores of the machine (a cpuset); a fraction F gets the last
ceil(F) cores with a CFS quota of F cores, so a share of one core is still a core nobody else runs on. Every other
role (Gatling, the delay-service, PostgreSQL, the samplers) runs on the cores left, which must be at least one.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

from loadlab.core.run_params import RunParams

# The CFS period the quota is a share of: the kernel's default (100 ms). A service over its quota waits up to the
# rest of the period, the latency a throttled container shows too.
QUOTA_PERIOD_US = 100_000
# The smallest share: below a tenth of a core the JVM's own timers and GC fill the quota with no request served.
SERVICE_CPUS_MIN = 0.1
# Two decimals are as fine as a quota is worth stating (a hundredth of a core is 1 ms per 100 ms period).
DECIMALS = 2
# What a host script reads: LOADLAB_CPU_SPLIT="service=1 others=0 quota_us=50000 period_us=100000".
ENV = "LOADLAB_CPU_SPLIT"


@dataclass(frozen=True)
class CpuSplit:
    service_cpus: float  # what SERVICE_CPUS asked: cores, or a share of one
    service_set: tuple[int, ...]  # the cpuset the service runs on
    others_set: tuple[int, ...]  # the cpuset of every other role

    @property
    def quota_us(self) -> int | None:
        """The CFS quota per QUOTA_PERIOD_US; None for a whole number of cores (the cpuset is the limit)."""
        if float(self.service_cpus).is_integer():
            return None
        return round(self.service_cpus * QUOTA_PERIOD_US)

    @property
    def other_cores(self) -> int:
        return len(self.others_set)

    def env_value(self) -> str:
        quota = self.quota_us
        return (
            f"service={_cpulist(self.service_set)} others={_cpulist(self.others_set)} "
            f"quota_us={-1 if quota is None else quota} period_us={QUOTA_PERIOD_US}"
        )

    def describe(self) -> str:
        quota = "" if self.quota_us is None else f", capped at {self.service_cpus:g} of a core by a CPU quota"
        return (
            f"the service alone on core(s) {_cpulist(self.service_set)}{quota}; "
            f"every other role on core(s) {_cpulist(self.others_set)}"
        )

    def as_dict(self) -> dict[str, object]:
        return {
            "service_cpus": self.service_cpus,
            "service_set": list(self.service_set),
            "others_set": list(self.others_set),
            "quota_us": self.quota_us,
            "period_us": QUOTA_PERIOD_US,
        }


class SplitError(ValueError):
    """The share asked cannot be given on this machine; the message is the one line the user sees."""


def parse(name: str, raw: str) -> float | None:
    """'' → None (the service shares the machine); '1', '0.5' → the share; anything else → SplitError."""
    text = raw.strip()
    if not text:
        return None
    allowed = (
        f"allowed: empty, whole cores (1, 2, …) or a share of one (≥ {SERVICE_CPUS_MIN}, at most {DECIMALS} decimals)"
    )
    try:
        value = float(text)
    except ValueError:
        raise SplitError(f"{name}={raw!r} is not a number; {allowed}") from None
    if not math.isfinite(value) or value < SERVICE_CPUS_MIN or round(value, DECIMALS) != value:
        raise SplitError(f"{name}={raw!r} is out of range; {allowed}")
    return int(value) if value.is_integer() else value


def machine_cpus() -> tuple[int, ...]:
    """The cores this process may run on (what a cpuset can be carved from)."""
    try:
        return tuple(sorted(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return tuple(range(os.cpu_count() or 1))


def split(service_cpus: float, cpus: tuple[int, ...], name: str = "SERVICE_CPUS") -> CpuSplit:
    """The last ceil(service_cpus) cores for the service, the rest for the others; SplitError when none is left."""
    need = math.ceil(service_cpus)
    if need > len(cpus) - 1:
        most = len(cpus) - 1
        allowed = f"{SERVICE_CPUS_MIN}..{most}" if most >= 1 else "empty (one core cannot be split)"
        raise SplitError(
            f"{name}={service_cpus:g} leaves the other roles no core of this machine's {len(cpus)}; allowed: {allowed}"
        )
    return CpuSplit(service_cpus, tuple(cpus[-need:]), tuple(cpus[:-need]))


def of_run(service_cpus: object, cores: float | None) -> CpuSplit | None:
    """The split a finished run had, from its recorded SERVICE_CPUS and the machine's core count; None when the
    service shared the machine (or the record cannot say)."""
    if not isinstance(service_cpus, (int, float, str)) or service_cpus == "" or not cores:
        return None
    try:
        return split(float(service_cpus), tuple(range(int(cores))))
    except (TypeError, ValueError):
        return None


def cross_check(values: RunParams) -> list[str]:
    """params.py's check of SERVICE_CPUS against this machine's cores, where the hosts are this machine."""
    share = values.service_cpus
    if share is None or values.target == "aws":
        return []  # aws: each role has a host of its own already (bench says it ignores the parameter)
    try:
        split(share, machine_cpus())
    except SplitError as e:
        return [str(e)]
    return []


def _cpulist(cpus: tuple[int, ...]) -> str:
    return ",".join(map(str, cpus))
