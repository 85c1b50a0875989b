"""What each scenario's model predicts for a mode's knee: one function per model, each giving the rate, its name
(`predicted_by`) and the formula with its numbers, so the page can show how the number was reached.

- little: a platform pool of N blocking threads, each holding a request for the baseline latency (Little's law).
- pool: a database pool of DB_POOL connections each held for one query; platform threads beyond the pool only queue.
- cpu: CPU_MS of computation per request on the thread-service's cores, less what the other roles on that machine
  spend per request (measured from the samples).
- pinned: on JDK < 24, a virtual thread blocking inside `synchronized` holds its carrier, so only the carriers
  (the virtual scheduler's parallelism) run requests at a time.

`predict` takes the lowest applicable one; `agreement` says whether the measured knee agrees with it.
Everything here is plain arithmetic on numbers the verdict already has, so each formula is unit-tested.
"""

from __future__ import annotations

from dataclasses import dataclass

# A knee within this share of the prediction agrees with it (issue 9: ±15%).
AGREEMENT_TOLERANCE = 0.15
# JEP 491 (JDK 24): a virtual thread blocking inside `synchronized` no longer pins its carrier.
FIRST_JDK_WITHOUT_PINNING = 24


@dataclass(frozen=True)
class Prediction:
    rps: float
    predicted_by: str  # little | pool | cpu | pinned
    formula: str  # e.g. "pool: 10 connections / 0.203 s (baseline p50) = 49 rps"


@dataclass(frozen=True)
class Inputs:
    """What the models need about one mode; None where it was not measured or does not apply."""

    mode: str  # platform | virtual (the thread mode, not the label)
    scenario: str = "http"
    jdk: int | None = None
    threads: float | None = None  # Tomcat's max threads (live, else PLATFORM_THREADS)
    baseline_ms: float | None = None
    delay_ms: float | None = None
    db_pool: float | None = None  # the pool the service reported, else DB_POOL
    cpu_ms: float | None = None
    cores: float | None = None  # the thread-service host's cores
    others_cpu_ms_per_request: float | None = None  # other roles on the same machine, per OK request
    carriers: float | None = None  # virtual_scheduler_parallelism from the live config
    # The measured CPU ceiling (utilization law) when the refine step provides it (issue 11); None until then.
    cpu_ceiling: Prediction | None = None


def little(threads: float | None, baseline_ms: float | None) -> Prediction | None:
    if not threads or not baseline_ms:
        return None
    rps = threads * 1000.0 / baseline_ms
    return Prediction(rps, "little", f"little: {threads:g} threads / {_s(baseline_ms)} (baseline p50) = {rps:,.0f} rps")


def pool(
    db_pool: float | None, hold_ms: float | None, hold_source: str, threads: float | None = None
) -> Prediction | None:
    """threads: the platform pool in front of the connection pool (None for virtual: no limit there)."""
    if not db_pool or not hold_ms:
        return None
    if threads:
        busy = min(threads, db_pool)
        what = f"min({threads:g} threads, {db_pool:g} connections)"
    else:
        busy, what = db_pool, f"{db_pool:g} connections"
    rps = busy * 1000.0 / hold_ms
    return Prediction(rps, "pool", f"pool: {what} / {_s(hold_ms)} ({hold_source}) = {rps:,.0f} rps")


def cpu(cores: float | None, cpu_ms: float | None, others_ms_per_request: float | None = None) -> Prediction | None:
    if not cores or not cpu_ms:
        return None
    others = others_ms_per_request or 0.0
    rps = cores * 1000.0 / (cpu_ms + others)
    per_request = f"({cpu_ms:g} ms + {others:.1f} ms of other roles' CPU per request)" if others else f"{cpu_ms:g} ms"
    return Prediction(rps, "cpu", f"cpu: {cores:g} cores × 1000 / {per_request} = {rps:,.0f} rps")


def pinned(carriers: float | None, carriers_source: str, delay_ms: float | None) -> Prediction | None:
    if not carriers or not delay_ms:
        return None
    rps = carriers * 1000.0 / delay_ms
    return Prediction(
        rps, "pinned", f"pinned: {carriers:g} carriers ({carriers_source}) × 1000 / {delay_ms:g} ms = {rps:,.0f} rps"
    )


def applicable(x: Inputs) -> list[Prediction]:
    """Every model that limits this mode in this scenario, in a fixed order (ties keep the first)."""
    found = []
    if x.mode == "platform":
        found.append(little(x.threads, x.baseline_ms))
    if x.scenario == "db":
        hold, source = (x.baseline_ms, "baseline p50") if x.baseline_ms else (x.delay_ms, "DELAY_MS, no baseline")
        found.append(pool(x.db_pool, hold, source, x.threads if x.mode == "platform" else None))
    if x.scenario == "cpu" or (x.cpu_ms or 0) > 0:
        found.append(cpu(x.cores, x.cpu_ms, x.others_cpu_ms_per_request))
    if x.scenario == "pinned" and x.mode == "virtual" and x.jdk is not None and x.jdk < FIRST_JDK_WITHOUT_PINNING:
        carriers, source = (
            (x.carriers, "virtual scheduler parallelism") if x.carriers else (x.cores, "cores, the default parallelism")
        )
        found.append(pinned(carriers, source, x.delay_ms))
    found.append(x.cpu_ceiling)
    return [p for p in found if p is not None]


def predict(x: Inputs) -> Prediction | None:
    """The lowest limit: the one the service reaches first."""
    found = applicable(x)
    return min(found, key=lambda p: p.rps) if found else None


def agreement(
    predicted: float | None,
    sustained: float | None,
    collapsed: bool | None,
    peak: float | None,
    tolerance: float = AGREEMENT_TOLERANCE,
) -> tuple[bool | None, str]:
    """Whether the knee agrees with the prediction (True/False), or cannot be told (None), and why in words."""
    if not predicted:
        return None, "no model limits this mode"
    band = f"±{tolerance:.0%} of the predicted {predicted:,.0f} rps"
    if not collapsed:
        if peak and peak > predicted * (1 + tolerance):
            return False, f"it never collapsed, even at {peak:,.0f} rps, beyond {band}"
        return None, f"it never collapsed up to {peak or 0:,.0f} rps, so its knee was not reached ({band})"
    off = (sustained or 0) / predicted - 1
    where = f"{abs(off):.0%} {'above' if off > 0 else 'below'}"
    if abs(off) <= tolerance:
        return True, f"the knee {sustained:,.0f} rps is within {band} ({where})"
    return False, (
        f"the knee {sustained or 0:,.0f} rps is {where} the predicted {predicted:,.0f} rps (allowed ±{tolerance:.0%})"
    )


def _s(ms: float) -> str:
    return f"{ms / 1000:.3f} s"
