"""Each mode's knee on a host the user names, from the run's figures: every limit it could meet there, each with its
interval and how sure it is (prediction.Prediction: `rough` and why), and the lowest, the limit met first.

- the pool (Little's law) and the connections (Tomcat's max-connections) hold a request for its hold time whatever
  the host: they are the run's own predictions, carried over;
- the service's CPU: its line of CPU against the rate (cpufit), read where it fills the host's cores, the service
  alone on them (the other roles on hosts of their own);
- memory: half of the host's memory (what loadlab-host gives the service) above what it held at its lightest level,
  at the measured memory per request in flight (threadlimits.memory_ceiling);
- the host's thread limit (platform): a thread per request in flight, at most what a Linux host lets one process
  start (the mappings of its stacks; HOST_THREADS_LIMIT), each held for the hold time.
"""

from __future__ import annotations

from dataclasses import dataclass

from loadlab.analysis import cpufit, threadlimits
from loadlab.analysis.prediction import Prediction
from loadlab.capacity.figures import SERVICE, ModeFigures
from loadlab.capacity.hostspec import HostSpec

# The limits a host does not change, taken from the run's own predictions as summary.json spells them.
CARRIED_OVER = ("little", "pool", "connections")
# What a stock 64-bit Linux lets one JVM start (a thread stack takes two mappings of vm.max_map_count's 65,530; the
# JVM maps its heap, code and jars besides): loadlab-host's own rule for the service (MAPS_RESERVED), less the
# JVM's own threads (threadlimits.JVM_OWN_THREADS). A host tuned past it moves the limit.
DEFAULT_MAX_MAP_COUNT = 65_530
MAPS_RESERVED = 4_000
HOST_THREADS_LIMIT = (DEFAULT_MAX_MAP_COUNT - MAPS_RESERVED) // 2
# The service's memory on its host: loadlab-host's MEMORY_SHARE_DIVISOR (half; the rest is the OS's and the
# page cache's).
MEMORY_SHARE = 0.5


@dataclass(frozen=True)
class ModeKnee:
    label: str
    limits: tuple[Prediction, ...]  # lowest first

    @property
    def first(self) -> Prediction | None:
        return self.limits[0] if self.limits else None

    def rough(self) -> list[str]:
        """The figures fitted poorly enough to make the plan rough: each limit's reasons, by name."""
        return [f"{p.predicted_by}: {p.quality()}" for p in self.limits if p.quality()]


def carried_over(figures: ModeFigures) -> list[Prediction]:
    found = []
    for p in figures.predictions:
        if p.get("predicted_by") in CARRIED_OVER and p.get("rps"):
            interval = p.get("interval_rps")
            fitted = p.get("fitted_on_rps")
            found.append(
                Prediction(
                    float(p["rps"]),
                    str(p["predicted_by"]),
                    str(p.get("formula") or ""),
                    None if not interval else (interval[0], interval[1]),
                    None if not fitted else (fitted[0], fitted[1]),
                    p.get("r2"),
                    p.get("levels"),
                )
            )
    return found


def cpu_limit(figures: ModeFigures, host: HostSpec) -> Prediction | None:
    """The service alone on the host's cores: its knee where its own CPU line fills them."""
    ceiling = cpufit.cpu_ceiling([(x, {SERVICE: y}) for x, y in figures.cpu_points[SERVICE]], host.cores, host.name)
    return None if ceiling is None else ceiling.prediction()


def memory_limit(figures: ModeFigures, host: HostSpec) -> Prediction | None:
    fit = figures.memory
    if not fit or figures.base_rss_mb is None:
        return None
    rates = [x for x, _ in figures.cpu_points[SERVICE]]
    return threadlimits.memory_ceiling(
        host.memory_gb * 1024 * MEMORY_SHARE,
        f"(half of {host.name}'s {host.memory_gb:g} GB)",
        figures.base_rss_mb,
        "resident at the lightest level",
        fit.get("slope"),
        tuple(fit["interval"]) if fit.get("interval") else None,
        (min(rates), max(rates)) if rates else None,
        fit.get("r2"),
        fit.get("levels"),
        figures.hold_ms,
    )


def threads_limit(figures: ModeFigures) -> Prediction | None:
    if figures.mode != "platform" or not figures.hold_ms:
        return None
    threads = HOST_THREADS_LIMIT - threadlimits.JVM_OWN_THREADS
    rps = threads * 1000.0 / figures.hold_ms
    return Prediction(
        rps,
        "threads",
        f"threads: {threads:,} request threads ((vm.max_map_count {DEFAULT_MAX_MAP_COUNT:,} − {MAPS_RESERVED:,}) / "
        f"2 mappings a stack, less {threadlimits.JVM_OWN_THREADS} of the JVM's own) / "
        f"{figures.hold_ms / 1000:.3f} s (baseline p50) = {rps:,.0f} rps",
    )


def mode_knee(figures: ModeFigures, host: HostSpec) -> ModeKnee:
    found = [*carried_over(figures), cpu_limit(figures, host), memory_limit(figures, host), threads_limit(figures)]
    return ModeKnee(figures.label, tuple(sorted((p for p in found if p is not None), key=lambda p: p.rps)))
