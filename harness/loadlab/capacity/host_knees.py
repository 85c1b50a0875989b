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
from loadlab.capacity.hostspec import HostSpec
from loadlab.capacity.run_figures import SERVICE, ModeFigures

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
class HostKnee:
    label: str
    limits: tuple[Prediction, ...]  # lowest first
    # Why the service's CPU gives no limit on that host although its line was fitted: what it burns at no load
    # already fills the host's cores (None when it does not, or when no line could be fitted).
    cpu_fills_host: str | None = None

    @property
    def first(self) -> Prediction | None:
        """The limit met first; None when there is none, or when a limit's interval reaches zero (then any other
        limit may come after it, so which comes first is not known)."""
        if not self.limits or self.not_a_figure():
            return None
        return self.limits[0]

    def not_a_figure(self) -> str | None:
        """Why this run cannot give the mode's knee on that host as a figure, in words; None when it can. It cannot
        when a limit's interval reaches zero rps: the data allows that limit to be met at no load at all."""
        unplaced = [p for p in self.limits if reaches_zero(p)]
        if self.cpu_fills_host:
            return self.cpu_fills_host
        if not unplaced:
            return None
        return "; ".join(
            f"its {p.predicted_by} limit cannot be placed: the interval its measured figures allow reaches 0 rps "
            f"(up to {'no upper end' if p.band()[1] is None else f'{p.band()[1]:,.0f} rps'}), so the knee may lie "
            "anywhere below the other limits"
            for p in unplaced
        )

    def rough(self) -> list[str]:
        """The figures fitted poorly enough to make the plan rough: each limit's reasons, by name."""
        return [f"{p.predicted_by}: {p.quality()}" for p in self.limits if p.quality()]


def reaches_zero(p: Prediction) -> bool:
    return p.band()[0] <= 0


def carried_over(figures: ModeFigures) -> list[Prediction]:
    found = []
    for p in figures.predictions:
        if p.predicted_by in CARRIED_OVER and p.rps:
            interval, fitted = p.interval_rps, p.fitted_on_rps
            found.append(
                Prediction(
                    float(p.rps),
                    str(p.predicted_by),
                    str(p.formula or ""),
                    # summary.json's interval may leave either end open; a prediction's low end is always known
                    None if not interval or interval[0] is None else (interval[0], interval[1]),
                    None if not fitted else (fitted[0], fitted[1]),
                    p.r2,
                    p.levels,
                )
            )
    return found


def cpu_limit(figures: ModeFigures, host: HostSpec) -> Prediction | None:
    """The service alone on the host's cores: its knee where its own CPU line fills them."""
    ceiling = cpufit.cpu_ceiling([(x, {SERVICE: y}) for x, y in figures.cpu_points[SERVICE]], host.cores, host.name)
    return None if ceiling is None else ceiling.prediction()


def cpu_fills_host(figures: ModeFigures, host: HostSpec) -> str | None:
    """Words for a service whose fitted CPU line leaves no room on the host: its intercept (what it burns whatever
    the rate, on this run's levels) is already every core the host has."""
    fit = cpufit.fit_role(SERVICE, figures.cpu_points[SERVICE])
    if fit is None or fit.fixed_cores < host.cores:
        return None
    line = (
        f"its intercept over {fit.levels} levels, R² {fit.r2:.2f}"
        if fit.ms_per_request > 0
        else f"its mean over {fit.levels} levels, through which it did not rise with the rate"
    )
    return (
        f"its CPU cannot be placed on {host.name}: the service's CPU line says it burns {fit.fixed_cores:.2f} cores "
        f"at no load ({line}), which is every core that host has; a run with a longer warm-up (WARMUP_SECONDS), "
        "so that its first levels no longer carry the JIT compiler's work, may fit that cost lower"
    )


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
        fit.slope,
        (fit.interval[0], fit.interval[1]) if fit.interval else None,
        (min(rates), max(rates)) if rates else None,
        fit.r2,
        fit.points,
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


def on_host(figures: ModeFigures, host: HostSpec) -> HostKnee:
    cpu = cpu_limit(figures, host)
    found = [*carried_over(figures), cpu, memory_limit(figures, host), threads_limit(figures)]
    return HostKnee(
        figures.label,
        tuple(sorted((p for p in found if p is not None), key=lambda p: p.rps)),
        cpu_fills_host(figures, host) if cpu is None else None,
    )
