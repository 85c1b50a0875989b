"""What a plan needs from a finished run, read from its summary.json: per mode, the hold time of a request, the
pool, the connections, each role's CPU against the rate over the healthy levels (coarse and used fine passes), the
memory a request in flight costs; and the machine it was measured on."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from loadlab.analysis.levels import Evidence
from loadlab.core import metrics, runrecord
from loadlab.core.servicecpus import CpuSplit
from loadlab.core.servicecpus import of_run as split_of_run
from loadlab.summary.reading.labels import base_mode
from loadlab.summary.reading.values import as_float
from loadlab.summary.schema.fit_records import CostSlopeRecord, PredictionRecord
from loadlab.summary.schema.level_records import LevelRecord
from loadlab.summary.verdicts import records
from loadlab.summary.verdicts.records import ModeRecord

# The roles' CPU in a level's evidence (% of one core; the injector's is one injector's).
SERVICE, DELAY, INJECTORS = "thread-service", "delay-service", "injectors"
EVIDENCE: dict[str, Callable[[Evidence], float | None]] = {
    SERVICE: lambda ev: ev.thread_cpu_pct,
    DELAY: lambda ev: ev.delay_cpu_pct,
    INJECTORS: lambda ev: ev.injector_cpu_pct,
}


@dataclass(frozen=True)
class ModeFigures:
    label: str
    mode: str  # platform | virtual
    valid: bool
    invalid_reasons: tuple[str, ...]
    sustained_rps: float | None
    hold_ms: float | None  # the baseline p50: how long one request holds a thread, a connection, its memory
    pool: int | None  # platform: Tomcat's maximum threads as the service reported them
    predictions: tuple[PredictionRecord, ...]  # summary.json's, for the limits no host changes (the pool, connections)
    cpu_points: dict[str, list[tuple[float, float | None]]]  # role → (OK rps, % of one core) per healthy level
    memory: CostSlopeRecord | None  # costs.memory_per_inflight: slope (KB per request in flight), interval, r2
    base_rss_mb: float | None  # resident memory at the lightest healthy level


@dataclass(frozen=True)
class RunFigures:
    run_dir: Path
    run_id: str
    target: str
    machine: str
    machine_cores: float | None
    machine_memory_gb: float | None
    injectors: int
    split: CpuSplit | None  # SERVICE_CPUS when the run had it
    minutes: float | None  # how long the run took, start to finish (params.json)
    modes: tuple[ModeFigures, ...]

    def valid_modes(self) -> list[ModeFigures]:
        return [m for m in self.modes if m.valid]


def served_fitted_levels(mode: ModeRecord) -> list[LevelRecord]:
    """The levels a fit may use: those the summary fits on (ModeRecord.fitted_levels) that served requests."""
    return [lv for lv in mode.fitted_levels if lv.ok_rps]


def mode_figures(label: str, mode: ModeRecord, asked_pool: int | None, injectors: int) -> ModeFigures:
    """asked_pool: PLATFORM_THREADS where it was one size (RunParams.single_pool), read where the service did not
    report its pool."""
    levels = served_fitted_levels(mode)
    points: dict[str, list[tuple[float, float | None]]] = {}
    for role, read in EVIDENCE.items():
        scale = injectors if role == INJECTORS else 1
        pct = [read(lv.sampled) for lv in levels]
        points[role] = [(float(lv.ok_rps or 0), None if p is None else p * scale) for lv, p in zip(levels, pct)]
    live = mode.live_config or {}
    pool = as_float(live.get(metrics.TOMCAT_THREADS_MAX)) or as_float(asked_pool)
    rss = [lv.rss_mb for lv in levels if lv.rss_mb is not None]
    return ModeFigures(
        label,
        base_mode(label),
        bool(mode.validity.valid),
        tuple(mode.validity.invalid_reasons or ()),
        as_float(mode.sustained_rps),
        as_float(mode.baseline_p50_ms),
        int(pool) if pool and base_mode(label) == "platform" else None,
        tuple(mode.predictions or ()),
        points,
        mode.request_cost.fits.memory_per_inflight if mode.request_cost.fits else None,
        rss[0] if rss else None,
    )


def read(run_dir: Path) -> RunFigures:
    """The run's figures; OSError/ValueError when summary.json is missing or unreadable (plan.py refuses then)."""
    summary = records.read(run_dir)
    params = summary.params
    injectors = params.injectors
    machine = str(summary.machine or "")
    found = re.search(r"(\d+) cores, (\d+(?:\.\d+)?) GiB", machine)
    cores = float(found.group(1)) if found else None
    target = str(summary.target or "local")
    modes = tuple(mode_figures(label, mode, params.single_pool, injectors) for label, mode in summary.modes.items())
    return RunFigures(
        run_dir,
        str(summary.run_id or run_dir.name),
        target,
        machine,
        cores,
        float(found.group(2)) if found else None,
        injectors,
        split_of_run(params.service_cpus, cores) if target != "aws" else None,
        runrecord.load(run_dir).minutes,
        modes,
    )
