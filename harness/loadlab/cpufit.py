"""The CPU ceiling of a mode by the utilization law, from what its healthy levels measured.

Each role's CPU per request is the SLOPE of a least-squares line through (OK throughput, the role's process CPU)
over the healthy levels — not a ratio at one level, which would charge the role's fixed per-second costs (GC,
timers, samplers) to the requests. The intercepts are those fixed costs. The roles on one host share its cores, so
the ceiling is the rate at which they would use every core:

    ceiling = (cores − Σ fixed cores) × 1000 / Σ ms of CPU per request

On `local`/`netns` every role is on the same machine; on `aws` each host has its own ceiling and the smallest wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .models import Prediction

# A fit needs levels whose rates differ: at least this many, spanning at least this share of the highest rate.
MIN_LEVELS = 2
MIN_SPAN_RATIO = 0.2


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

    def as_dict(self) -> dict:
        return {
            "role": self.role,
            "ms_per_request": round(self.ms_per_request, 3),
            "fixed_cores": round(self.fixed_cores, 3),
            "levels": self.levels,
            "r2": None if self.r2 is None else round(self.r2, 3),
            "points": [[round(x, 1), round(y, 1)] for x, y in self.points],
        }


@dataclass(frozen=True)
class CpuCeiling:
    rps: float
    host: str
    cores: float
    roles: tuple[RoleFit, ...]

    @property
    def ms_per_request(self) -> float:
        return sum(r.ms_per_request for r in self.roles)

    @property
    def fixed_cores(self) -> float:
        return sum(r.fixed_cores for r in self.roles)

    def formula(self) -> str:
        parts = " + ".join(f"{r.role} {r.ms_per_request:.2f}" for r in self.roles)
        fixed = f" − {self.fixed_cores:.2f} fixed" if self.fixed_cores else ""
        return f"cpu: ({self.cores:g} cores{fixed}) × 1000 / ({parts} ms of CPU per request) = {self.rps:,.0f} rps"

    def prediction(self) -> Prediction:
        return Prediction(self.rps, "cpu", self.formula())

    @property
    def r2_min(self) -> float | None:
        """The weakest fit among the roles that have a slope: one poorly fitted role makes the ceiling rough."""
        known = [r.r2 for r in self.roles if r.r2 is not None]
        return min(known) if known else None

    @property
    def levels(self) -> int:
        return max((r.levels for r in self.roles), default=0)

    def as_dict(self) -> dict:
        return {
            "rps": round(self.rps),
            "host": self.host,
            "cores": self.cores,
            "ms_per_request": round(self.ms_per_request, 3),
            "fixed_cores": round(self.fixed_cores, 3),
            "levels": self.levels,
            "r2_min": None if self.r2_min is None else round(self.r2_min, 3),
            "roles": [r.as_dict() for r in self.roles],
            "formula": self.formula(),
        }


def r_squared(xs: Sequence[float], ys: Sequence[float], slope: float, intercept: float) -> float | None:
    """The share of the CPU's variation the line explains; None when the CPU did not vary at all."""
    my = sum(ys) / len(ys)
    total = sum((y - my) ** 2 for y in ys)
    if total == 0:
        return None
    residual = sum((y - (slope * x + intercept)) ** 2 for x, y in zip(xs, ys))
    return 1.0 - residual / total


def fit_line(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float] | None:
    """(slope, intercept) of the least-squares line; None without two distinct x values."""
    n = len(xs)
    if n < 2 or n != len(ys):
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return None
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return slope, my - slope * mx


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
    line = fit_line(xs, ys)
    if line is None:
        return None
    slope, intercept = line
    if slope <= 0:
        return RoleFit(role, 0.0, max(sum(ys) / len(ys), 0.0), len(known), None, tuple(known))
    return RoleFit(
        role, slope * 1000.0, max(intercept, 0.0), len(known), r_squared(xs, ys, slope, intercept), tuple(known)
    )


def cpu_ceiling(
    levels: Sequence[tuple[float, Mapping[str, float | None]]], cores: float | None, host: str = "this machine"
) -> CpuCeiling | None:
    """The ceiling of one host from (OK rps, {role: CPU %}) of each healthy level; None when it cannot be fitted
    (fewer than two levels, rates too close together, no role whose CPU rose with the rate)."""
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
    return CpuCeiling(usable * 1000.0 / per_request, host, cores, tuple(fits))


def lowest(ceilings: Sequence[CpuCeiling | None]) -> CpuCeiling | None:
    """On separate hosts (aws) the host that runs out of CPU first sets the ceiling."""
    known = [c for c in ceilings if c is not None]
    return min(known, key=lambda c: c.rps) if known else None


def ceiling_of_levels(
    levels: Sequence,
    shared_machine: bool,
    injectors: int,
    thread_cores: float | None,
) -> CpuCeiling | None:
    """The mode's CPU ceiling from its healthy levels (analysis.Level, before the first unhealthy one).

    Shared machine (local, netns): one ceiling for every role on its cores, the injectors' CPU counted for all of
    them (the busiest one's × their number). Separate hosts (aws): one ceiling per host, the smallest wins; an
    injector host's CPU is fitted against the total rate, so its ceiling is the total rate it would allow."""

    def points(cpu_of) -> list[tuple[float, dict[str, float | None]]]:
        return [(lv.ok_rps, cpu_of(lv.evidence)) for lv in levels]

    def injector_pct(ev) -> float | None:
        return None if ev.injector_cpu_pct is None else ev.injector_cpu_pct * max(injectors, 1)

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
        )
    first = levels[0].evidence if levels else None
    return lowest(
        [
            cpu_ceiling(points(lambda ev: {"thread-service": ev.thread_cpu_pct}), thread_cores, "thread host"),
            cpu_ceiling(
                points(lambda ev: {"delay-service": ev.delay_cpu_pct}), first and first.delay_cores, "delay host"
            ),
            cpu_ceiling(
                points(lambda ev: {"injector": ev.injector_cpu_pct}),
                first and first.injector_cores,
                "busiest injector host",
            ),
        ]
    )
