"""For a target rate: the hosts it takes, from the run's measured costs — the service's host per mode (its CPU per
request, the memory its requests in flight hold, platform's pool by Little's law and what a host lets it start), the
delay-service's host and the injector hosts (their CPU per request with headroom, and the ports and in-flight
requests each injector can hold: every virtual user opens its own connection), and what they cost per hour and per
run from the dated table."""

from __future__ import annotations

import math
from dataclasses import dataclass

from loadlab.analysis import linefit
from loadlab.analysis.models import CPU_KNEE_UTILIZATION
from loadlab.capacity.host_knees import HOST_THREADS_LIMIT, MEMORY_SHARE
from loadlab.capacity.instances import Instance, Table
from loadlab.capacity.run_figures import DELAY, INJECTORS, SERVICE, ModeFigures, RunFigures
from loadlab.core.inflight import HEALTHY_INFLIGHT_MAX

# The helpers must stay well below the validity check's 90% of their cores, or the run measures them: 70% busy.
HELPER_UTILIZATION = 0.7
# The injector host type of the stack (infra/variables.tf's injector_instance_type default) and the family every
# other host is picked from, unless INSTANCE names one.
INJECTOR_TYPE = "c7i.2xlarge"
FAMILY = "c7i"
# Ephemeral ports an injector host opens connections from (infra/templates/user-data: 1024..65000), each busy for
# the request and, with tcp_tw_reuse = 1, about a second of TIME-WAIT after it.
PORTS_PER_INJECTOR = 65000 - 1024 + 1
TIME_WAIT_REUSE_S = 1.0


@dataclass(frozen=True)
class Need:
    what: str
    cores: float | None  # None: not fitted (the run cannot say)
    memory_gb: float
    instance: Instance | None
    why: str

    def as_dict(self) -> dict[str, object]:
        return {
            "what": self.what,
            "cores": None if self.cores is None else round(self.cores, 2),
            "memory_gb": round(self.memory_gb, 2),
            "instance": None if self.instance is None else self.instance.name,
            "usd_hour": None if self.instance is None else self.instance.usd_hour,
            "why": self.why,
        }


def cores_at(points: list[tuple[float, float | None]], rps: float) -> tuple[float, str] | None:
    """The cores a role's CPU line (% of one core against OK rps) reaches at rps, at the top of its 95% band."""
    known = [(x, y / 100.0) for x, y in points if y is not None]
    line = linefit.fit([x for x, _ in known], [y for _, y in known])
    if line is None or line.slope <= 0:
        return None
    band = line.half_width(rps) or 0.0
    lo, hi = line.x_range
    return line.at(rps) + band, f"{line.slope * 1000:.3f} ms of CPU per request, fitted on {lo:,.0f}–{hi:,.0f} rps"


def service_need(m: ModeFigures, rps: float, table: Table, family: str) -> Need:
    hold_s = (m.hold_ms or 0) / 1000
    cpu = cores_at(m.cpu_points[SERVICE], rps)
    cores = None if cpu is None else cpu[0] / CPU_KNEE_UTILIZATION
    kb = m.memory.slope if m.memory else None
    inflight = rps * hold_s
    memory_mb = (m.base_rss_mb or 0) + (inflight * kb / 1024 if kb else 0)
    why = [
        f"{CPU_KNEE_UTILIZATION:.0%} busy at {rps:,.0f} rps: {cpu[1]}" if cpu else "its CPU per request was not fitted"
    ]
    why.append(
        f"{inflight:,.0f} requests in flight × {kb:,.1f} KB" if kb else "no memory per request in flight was fitted"
    )
    if m.mode == "platform":
        pool = math.ceil(inflight)
        why.append(f"a pool of {pool:,} threads (Little's law: {rps:,.0f} rps × {hold_s:.3f} s)")
        if pool > HOST_THREADS_LIMIT:
            why.append(f"more than the {HOST_THREADS_LIMIT:,} threads a stock Linux host lets one process start")
    memory_gb = memory_mb / 1024 / MEMORY_SHARE
    instance = table.smallest(family, math.ceil(cores), memory_gb) if cores is not None else None
    return Need(f"{m.label} service host", cores, memory_gb, instance, "; ".join(why))


def helper_needs(m: ModeFigures, rps: float, table: Table, injectors_type: Instance | None) -> tuple[Need, Need, int]:
    """The delay-service's host and the injector hosts (their number) for rps, from this mode's levels."""
    delay = cores_at(m.cpu_points[DELAY], rps)
    delay_cores = None if delay is None else delay[0] / HELPER_UTILIZATION
    delay_host = table.smallest(FAMILY, math.ceil(delay_cores), 0) if delay_cores is not None else None
    injected = cores_at(m.cpu_points[INJECTORS], rps)
    hold_s = (m.hold_ms or 0) / 1000
    per_injector_ports = PORTS_PER_INJECTOR / (hold_s + TIME_WAIT_REUSE_S)
    per_injector_inflight = HEALTHY_INFLIGHT_MAX / hold_s if hold_s else math.inf
    vcpus = injectors_type.vcpus if injectors_type else 0
    by_cpu = math.ceil(injected[0] / (HELPER_UTILIZATION * vcpus)) if injected and vcpus else None
    count = max(by_cpu or 1, math.ceil(rps / per_injector_ports), math.ceil(rps / per_injector_inflight))
    return (
        Need(
            "delay-service host",
            delay_cores,
            0,
            delay_host,
            f"{HELPER_UTILIZATION:.0%} busy at {rps:,.0f} rps: {delay[1]}" if delay else "its CPU was not fitted",
        ),
        Need(
            f"injector hosts ({INJECTOR_TYPE})",
            None if injected is None else injected[0] / HELPER_UTILIZATION,
            0,
            injectors_type,
            f"{count} = the most of: CPU {by_cpu if by_cpu else 'not fitted'} "
            f"({injected[1] if injected else '-'}, {HELPER_UTILIZATION:.0%} busy each); "
            f"ports {math.ceil(rps / per_injector_ports)} ({PORTS_PER_INJECTOR:,} each, a connection per request "
            f"held {hold_s:.3f} s + {TIME_WAIT_REUSE_S:g} s TIME-WAIT); in flight "
            f"{math.ceil(rps / per_injector_inflight)} ({HEALTHY_INFLIGHT_MAX:,.0f} healthy each)",
        ),
        count,
    )


def for_target(run: RunFigures, rps: float, table: Table, family: str) -> dict[str, object]:
    injector_type = table.find(INJECTOR_TYPE)
    per_mode: dict[str, dict[str, object]] = {}
    for m in run.valid_modes():
        service = service_need(m, rps, table, family)
        delay, injectors, count = helper_needs(m, rps, table, injector_type)
        hosts = [service.instance, delay.instance, *([injectors.instance] * count)]
        typed = [h for h in hosts if h is not None]
        hourly = None
        if len(typed) == len(hosts):
            hourly = sum(h.usd_hour for h in typed) + len(hosts) * table.public_ipv4_usd_hour
        per_mode[m.label] = {
            "service_host": service.as_dict(),
            "delay_host": delay.as_dict(),
            "injector_hosts": {**injectors.as_dict(), "count": count},
            "platform_pool": math.ceil(rps * (m.hold_ms or 0) / 1000) if m.mode == "platform" else None,
            "usd_hour": None if hourly is None else round(hourly, 4),
            "usd_per_run": None if hourly is None or not run.minutes else round(hourly * run.minutes / 60, 4),
        }
    return {
        "rps": rps,
        "per_mode": per_mode,
        "prices": table.price_note(),
        "run_minutes": None if run.minutes is None else round(run.minutes, 1),
    }
