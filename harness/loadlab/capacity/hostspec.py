"""The host a plan is for, as the user named it: `INSTANCE=` an EC2 type of the dated table, or `CORES=` and
`MEMORY_GB=` (each defaulting to the machine the run was measured on); every bad value refused in one line naming
it (exit 2)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from loadlab.capacity.instances import TABLE, Instance, Table
from loadlab.core.errors import ExitCode, LoadlabError
from loadlab.core.repo import REPO

CORES_MAX = 1024
MEMORY_GB_MAX = 24_576
RPS_MAX = 10_000_000


class PlanError(LoadlabError):
    """A plan refused before anything is written: the one line names the parameter or the run."""

    exit_code = ExitCode.USAGE


@dataclass(frozen=True)
class HostSpec:
    name: str
    cores: float
    memory_gb: float
    instance: Instance | None = None


def _number(name: str, raw: str, most: float, whole: bool = False) -> float:
    allowed = f"allowed: {'a whole number' if whole else 'a number'} > 0, at most {most:,g}"
    try:
        value = float(raw.strip())
    except ValueError:
        raise PlanError(f"{name}={raw!r} is not a number; {allowed}") from None
    if not math.isfinite(value) or not 0 < value <= most or (whole and not value.is_integer()):
        raise PlanError(f"{name}={raw!r} is out of range; {allowed}")
    return value


def host(
    env: dict[str, str], table: Table, run_cores: float | None, run_memory_gb: float | None, run_machine: str
) -> HostSpec:
    """The host from INSTANCE, or from CORES/MEMORY_GB with the run's machine for what is not given."""
    instance, cores, memory = (env.get(k, "").strip() for k in ("INSTANCE", "CORES", "MEMORY_GB"))
    if instance:
        if cores or memory:
            given = " ".join(f"{k}={env[k]}" for k in ("CORES", "MEMORY_GB") if env.get(k, "").strip())
            raise PlanError(
                f"INSTANCE={instance} and {given} both name the host; allowed: INSTANCE, or CORES/MEMORY_GB"
            )
        found = table.find(instance)
        if found is None:
            raise PlanError(
                f"INSTANCE={instance!r} is not in {TABLE.relative_to(REPO)}; allowed: {', '.join(table.names())}"
            )
        return HostSpec(
            f"{found.name} ({found.vcpus} vCPUs, {found.memory_gib:g} GiB)", found.vcpus, found.memory_gib, found
        )
    c = _number("CORES", cores, CORES_MAX) if cores else run_cores
    m = _number("MEMORY_GB", memory, MEMORY_GB_MAX) if memory else run_memory_gb
    if c is None or m is None:
        missing = "CORES" if c is None else "MEMORY_GB"
        raise PlanError(
            f"{missing} is not given and the run does not say its machine's; allowed: {missing}=<number> or INSTANCE"
        )
    what = "the run's machine" if not cores and not memory else "a host"
    return HostSpec(f"{what} of {c:g} cores and {m:g} GB", c, m)


def target_rps(env: dict[str, str]) -> float | None:
    raw = env.get("RPS", "").strip()
    return _number("RPS", raw, RPS_MAX, whole=True) if raw else None
