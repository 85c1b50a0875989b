"""The CPU limits of a mode by the utilization law, from what its healthy levels measured: the ceiling (every core
busy) and the knee (busy enough for latency to leave the health limit), each with the interval its fit allows.

Each role's CPU per request is the SLOPE of a least-squares line through (OK throughput, the role's process CPU)
over the healthy levels — not a ratio at one level, which would charge the role's fixed per-second costs (GC,
timers, samplers) to the requests. The intercepts are those fixed costs. The roles on one host share its cores, so
the ceiling is the rate at which they would use every core:

    ceiling = (cores − Σ fixed cores) × 1000 / Σ ms of CPU per request

The health rule trips before that: a CPU-bound mode's knee comes once the cores are models.CPU_KNEE_UTILIZATION
busy, and at the latest when all are. On a shared machine (local, netns) what fills the cores is the host's own CPU
— the roles, plus the kernel's network work and everything else on the machine, which the roles' process CPU does
not hold — so the knee is read off the line of the host's CPU against the rate when every fitted level sampled it;
else off the roles' line. Both lines carry their 95% band (linefit.py), which sets each interval.

On `local`/`netns` every role is on the same machine; on `aws` each host has its own ceiling and the smallest wins;
with SERVICE_CPUS the service's share and the other roles' cores are two such hosts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from loadlab.analysis import linefit
from loadlab.analysis.models import CPU_KNEE_UTILIZATION
from loadlab.analysis.prediction import Prediction, interval_text
from loadlab.core.servicecpus import CpuSplit

if TYPE_CHECKING:  # for annotations only: at run time the level model would bring hdrh to every importer of cpufit
    from loadlab.analysis.levels import Evidence, Level

# A fit needs levels whose rates differ: at least this many, spanning at least this share of the highest rate.
MIN_LEVELS = 2
MIN_SPAN_RATIO = 0.2
# SERVICE_CPUS: the host name of the service's own share of the machine.
SERVICE_SIDE = "the service's own cores"


@dataclass(frozen=True)
class RoleFit:
    role: str
    ms_per_request: float  # CPU milliseconds one OK request costs this role (the slope)
    fixed_cores: float  # CPU the role spends whatever the rate (the intercept, in cores; ≥ 0)
    levels: int
    # How well a straight line explains the role's CPU (1 = exactly); None for a fixed load (no slope to judge).
    r2: float | None = None
    # The fit's inputs: (OK requests/s, CPU in % of one core) of each level used.
    points: tuple[tuple[float, float], ...] = ()


@dataclass(frozen=True)
class BusyLine:
    """What keeps a host's cores busy, in cores, against the OK rate: the line the knee is read off."""

    what: str  # "host CPU" (the whole machine as sampled) | "the roles' CPU"
    line: linefit.Line


@dataclass(frozen=True)
class CpuCeiling:
    rps: float  # every core busy, from the roles' fits
    host: str
    cores: float
    roles: tuple[RoleFit, ...]
    total: linefit.Line | None = None  # the roles' CPU together (cores) against OK rps: the ceiling's band
    busy: BusyLine | None = None

    @property
    def ms_per_request(self) -> float:
        return sum(r.ms_per_request for r in self.roles)

    @property
    def fixed_cores(self) -> float:
        return sum(r.fixed_cores for r in self.roles)

    @property
    def r2_min(self) -> float | None:
        """The weakest fit among the roles that have a slope."""
        known = [r.r2 for r in self.roles if r.r2 is not None]
        return min(known) if known else None

    @property
    def levels(self) -> int:
        return max((r.levels for r in self.roles), default=0)

    @property
    def fitted_on(self) -> tuple[float, float] | None:
        return self.total.x_range if self.total else None

    @property
    def interval(self) -> tuple[float, float | None] | None:
        """Where every core could be busy, within the roles' line's band (it always holds the fitted point)."""
        reach = self.total.reaches_within_band(self.cores) if self.total else None
        if reach is None:
            return None
        low, high = reach
        return min(low, self.rps), None if high is None else max(high, self.rps)

    def knee(self) -> tuple[float, tuple[float, float | None] | None] | None:
        """(rate, interval) of the knee: where the busy line reaches CPU_KNEE_UTILIZATION of the cores; its
        interval runs from the earliest its band allows there to the latest its band allows every core busy."""
        if self.busy is None:
            return None
        line = self.busy.line
        rps = line.reaches(CPU_KNEE_UTILIZATION * self.cores)
        if rps is None or rps <= 0:
            return None
        start, full = line.reaches_within_band(CPU_KNEE_UTILIZATION * self.cores), line.reaches_within_band(self.cores)
        if start is None or full is None:
            return rps, None
        return rps, (min(start[0], rps), None if full[1] is None else max(full[1], rps))

    def formula(self) -> str:
        parts = " + ".join(f"{r.role} {r.ms_per_request:.2f}" for r in self.roles)
        fixed = f" − {self.fixed_cores:.2f} fixed" if self.fixed_cores else ""
        return f"cpu: ({self.cores:g} cores{fixed}) × 1000 / ({parts} ms of CPU per request) = {self.rps:,.0f} rps"

    def bound(self) -> Prediction:
        """The utilization law's ceiling: every core busy. A bound the knee stays below, not the knee."""
        return Prediction(
            self.rps,
            "cpu",
            self.formula(),
            self.interval,
            self.fitted_on,
            self.total.r2 if self.total else None,
            self.levels,
        )

    def prediction(self) -> Prediction:
        """The knee of a CPU-bound mode; the bound itself when no knee can be read off the busy line."""
        knee = self.knee()
        if knee is None or self.busy is None:  # a knee is read off the busy line
            return self.bound()
        rps, interval = knee
        line = self.busy.line
        ceiling = self.interval
        formula = (
            f"cpu: {self.busy.what} reaches {CPU_KNEE_UTILIZATION:.0%} of {self.cores:g} cores at {rps:,.0f} rps "
            f"(line through {line.n} healthy levels); every core busy at {self.rps:,.0f} rps"
            + (f" ({interval_text(*ceiling)})" if ceiling and interval_text(*ceiling) != f"{self.rps:,.0f} rps" else "")
            + " — the utilization law's bound"
        )
        return Prediction(rps, "cpu", formula, interval, line.x_range, line.r2, line.n)


def fit_role(role: str, points: Sequence[tuple[float, float | None]]) -> RoleFit | None:
    """points: (OK requests/s, the role's process CPU in % of one core) per healthy level. None when the levels
    cannot tell a slope (too few, rates too close); a role whose CPU does not rise with the rate (a delay-service
    the cpu scenario never calls) costs nothing per request, only its mean as a fixed load."""
    known = [(x, y) for x, y in points if y is not None and x > 0]
    if len(known) < MIN_LEVELS:
        return None
    xs = [x for x, _ in known]
    if max(xs) - min(xs) < MIN_SPAN_RATIO * max(xs):
        return None
    ys = [y / 100.0 for _, y in known]
    line = linefit.fit(xs, ys)
    if line is None:
        return None
    if line.slope <= 0:
        return RoleFit(role, 0.0, max(sum(ys) / len(ys), 0.0), len(known), None, tuple(known))
    return RoleFit(role, line.slope * 1000.0, max(line.intercept, 0.0), len(known), line.r2, tuple(known))


def cpu_ceiling(
    levels: Sequence[tuple[float, Mapping[str, float | None]]],
    cores: float | None,
    host: str = "this machine",
    host_cpu_pct: Sequence[float | None] | None = None,
) -> CpuCeiling | None:
    """The ceiling of one host from (OK rps, {role: CPU %}) of each healthy level; None when it cannot be fitted
    (fewer than two levels, rates too close together, no role whose CPU rose with the rate).

    host_cpu_pct: the host's own CPU (% of all its cores) at each level, when the roles are every process that
    matters on it (a shared machine): the knee is read off it."""
    if not cores or not levels:
        return None
    roles = sorted({role for _, cpu in levels for role in cpu})
    fits = []
    for role in roles:
        samples = [(rps, cpu.get(role)) for rps, cpu in levels]
        if all(y is None for _, y in samples):
            continue  # a role not sampled on this host
        fit = fit_role(role, samples)
        if fit is None:
            return None
        fits.append(fit)
    if not fits:
        return None
    per_request = sum(f.ms_per_request for f in fits)
    usable = cores - sum(f.fixed_cores for f in fits)
    if per_request <= 0 or usable <= 0:
        return None
    roles = [f.role for f in fits]
    return CpuCeiling(
        usable * 1000.0 / per_request,
        host,
        cores,
        tuple(fits),
        _roles_line(levels, roles),
        _busy_line(levels, roles, cores, host_cpu_pct),
    )


def _roles_cores(cpu: Mapping[str, float | None], roles: list[str]) -> float | None:
    """The fitted roles' CPU together at one level, in cores; None unless every one of them was sampled."""
    values = [cpu.get(r) for r in roles]
    known = [v for v in values if v is not None]
    return None if len(known) < len(values) else sum(known) / 100.0


def _roles_line(levels: Sequence[tuple[float, Mapping[str, float | None]]], roles: list[str]) -> linefit.Line | None:
    points = [(rps, y) for rps, cpu in levels if rps > 0 and (y := _roles_cores(cpu, roles)) is not None]
    return linefit.fit([x for x, _ in points], [y for _, y in points])


# The host's CPU and the roles' are sampled a moment apart: a host figure this share of its cores below the roles'
# is still the same second's work; further below, it is not the whole machine's figure.
SAMPLING_SKEW_CORES_RATIO = 0.05


def _busy_line(
    levels: Sequence[tuple[float, Mapping[str, float | None]]],
    roles: list[str],
    cores: float,
    host_cpu_pct: Sequence[float | None] | None,
) -> BusyLine | None:
    """The host's CPU when every level sampled it and it held the roles' CPU (it includes them); else the roles'."""
    if host_cpu_pct and len(host_cpu_pct) == len(levels) and all(p is not None for p in host_cpu_pct):
        points = [
            (rps, pct * cores / 100.0) for (rps, _), pct in zip(levels, host_cpu_pct) if rps > 0 and pct is not None
        ]
        roles_at = [_roles_cores(cpu, roles) for rps, cpu in levels if rps > 0]
        holds_roles = all(
            r is None or y >= r - SAMPLING_SKEW_CORES_RATIO * cores for (_, y), r in zip(points, roles_at)
        )
        line = linefit.fit([x for x, _ in points], [y for _, y in points]) if holds_roles else None
        # A host already that busy at the lightest level was busy with other work: its line says nothing about
        # where this load fills the cores (read off it, a near-flat line put the knee at a negative rate).
        if line is not None and line.slope > 0 and min(y for _, y in points) < CPU_KNEE_UTILIZATION * cores:
            return BusyLine("host CPU", line)
    total = _roles_line(levels, roles)
    return None if total is None else BusyLine("the roles' CPU", total)


def lowest(ceilings: Sequence[CpuCeiling | None]) -> CpuCeiling | None:
    """On separate hosts (aws) the host that runs out of CPU first sets the ceiling."""
    known = [c for c in ceilings if c is not None]
    return min(known, key=lambda c: c.rps) if known else None


def ceiling_of_levels(
    levels: Sequence[Level],
    shared_machine: bool,
    injectors: int,
    thread_cores: float | None,
    split: CpuSplit | None = None,
) -> CpuCeiling | None:
    """The mode's CPU ceiling from its healthy levels (levels.Level, before the first unhealthy one).

    Shared machine (local, netns): one ceiling for every role on its cores, the injectors' CPU counted for all of
    them (the busiest one's × their number). Separate hosts (aws): one ceiling per host, the smallest wins; an
    injector host's CPU is fitted against the total rate, so its ceiling is the total rate it would allow."""

    def points(cpu_of: Callable[[Evidence], dict[str, float | None]]) -> list[tuple[float, dict[str, float | None]]]:
        return [(lv.ok_rps, cpu_of(lv.evidence)) for lv in levels]

    def injector_pct(ev: Evidence) -> float | None:
        return None if ev.injector_cpu_pct is None else ev.injector_cpu_pct * max(injectors, 1)

    if shared_machine and split is not None:
        # SERVICE_CPUS: two hosts on one machine; the service's CPU on its share (the machine's CPU holds both sides)
        return lowest(
            [
                cpu_ceiling(points(lambda ev: {"thread-service": ev.thread_cpu_pct}), split.service_cpus, SERVICE_SIDE),
                cpu_ceiling(
                    points(lambda ev: {"delay-service": ev.delay_cpu_pct, "injectors": injector_pct(ev)}),
                    split.other_cores,
                    "the other roles' cores",
                ),
            ]
        )
    if shared_machine:
        return cpu_ceiling(
            points(
                lambda ev: {
                    "thread-service": ev.thread_cpu_pct,
                    "delay-service": ev.delay_cpu_pct,
                    "injectors": injector_pct(ev),
                }
            ),
            thread_cores,
            host_cpu_pct=[lv.evidence.host_cpu_pct for lv in levels],
        )
    first = levels[0].evidence if levels else None
    return lowest(
        [
            cpu_ceiling(points(lambda ev: {"thread-service": ev.thread_cpu_pct}), thread_cores, "thread host"),
            cpu_ceiling(
                points(lambda ev: {"delay-service": ev.delay_cpu_pct}),
                None if first is None else first.delay_cores,
                "delay host",
            ),
            cpu_ceiling(
                points(lambda ev: {"injector": ev.injector_cpu_pct}),
                None if first is None else first.injector_cores,
                "busiest injector host",
            ),
        ]
    )
