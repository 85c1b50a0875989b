"""The numbers the models need about one mode (analysis/model_inputs.Inputs), read from its raw files and its
levels as judged: live values first, what was asked when the service did not report it."""

from __future__ import annotations

from loadlab.analysis import cpufit, models
from loadlab.analysis.knee import Verdict
from loadlab.analysis.levels import Level, cpu_ms_per_request, level_number
from loadlab.analysis.validity import shares_one_machine
from loadlab.core import client, guards, metrics, scenario_mix
from loadlab.core.asked import Asked
from loadlab.core.servicecpus import CpuSplit
from loadlab.summary.judge import kinds
from loadlab.summary.judge.judging import JudgedMode, thread_cores
from loadlab.summary.reading.labels import base_mode, mode_jdk, mode_threads
from loadlab.summary.reading.raw import RawMode
from loadlab.summary.reading.values import as_float
from loadlab.summary.writing import hgrm_files


def connection_cap(live: dict[str, object], asked: Asked) -> float | None:
    """The service's connection cap as it reported it; -1 means it has none (Netty, MODES=reactive): no connections
    model then. A run from before the field existed falls back to what MAX_CONNECTIONS asked."""
    if live.get(metrics.TOMCAT_MAX_CONNECTIONS) is None:
        # a run from before MAX_CONNECTIONS asked for none
        return float(asked.max_connections) if asked.max_connections_recorded else None
    return as_float(live[metrics.TOMCAT_MAX_CONNECTIONS]) or None  # as_float: -1 is None


def model_inputs(
    label: str,
    raw: RawMode,
    levels: list[Level],
    verdict: Verdict,
    asked: Asked,
    target: str | None,
    ceiling: cpufit.CpuCeiling | None = None,
    split: CpuSplit | None = None,
) -> models.Inputs:
    """The numbers the models need, live values first: what the service reported beats what was asked. With
    SERVICE_CPUS the service's cores are its own share, and no other role runs on them."""
    live = raw.live_config
    cores = split.service_cpus if split else thread_cores(raw)
    others = None
    if shares_one_machine(target) and split is None and verdict.sustained_position is not None:
        # Other roles' CPU per request where the load was highest and still healthy: at low rates their fixed
        # per-second costs would inflate it.
        at = levels[verdict.sustained_position]
        others = cpu_ms_per_request(at.evidence.other_roles_cpu_pct, at.ok_rps)
    # the level the baseline was read on (baseline.py): not one set aside, nor a first level that broke
    position = verdict.baseline.position if verdict.baseline else None
    first = levels[position] if position is not None else next(iter(verdict.trusted(levels)), None)
    return models.Inputs(
        mode=base_mode(label),
        scenario=asked.scenario,
        jdk=mode_jdk(label, asked.jdk),
        threads=as_float(live.get(metrics.TOMCAT_THREADS_MAX)) or as_float(mode_threads(label, asked.pool)),
        baseline_ms=verdict.baseline_p50_ms,
        delay_ms=float(asked.delay_ms),
        db_pool=as_float(live.get(metrics.DB_POOL_MAX)) or float(asked.db_pool),
        cpu_ms=float(asked.cpu_ms),
        cores=cores,
        others_cpu_ms_per_request=others,
        carriers=as_float(live.get(metrics.VIRTUAL_SCHEDULER_PARALLELISM)),
        host_request_threads=raw.host_limits.request_threads if raw.host_limits else None,
        host_threads_limit=raw.host_limits.describe_threads() if raw.host_limits else "",
        max_connections=connection_cap(live, asked),
        # The utilization law on this mode's own healthy levels (cpufit.py): a CPU-bound mode's knee.
        cpu_ceiling=None if ceiling is None else ceiling.prediction(),
        baseline_rps=first.ok_rps if first else None,
        baseline_mean_ms=first.latency.mean_ms if first and first.latency else None,
        downstream_ms=first.evidence.downstream_ms_mean if first else None,
        concurrency_limit=concurrency_limit(label, live, asked),
        client_pool=client.pool(base_mode(label), live, asked, cores),
    )


def mix_holds(judged: JudgedMode, asked: Asked) -> tuple[models.KindHold, ...]:
    """A SCENARIO mix's kinds for the weighted prediction (kinds.holds), read at the healthy levels the knee stands on
    (knee.fit_levels, coarse and fine, as healthy_holds are); () for one scenario or an APP_REQUESTS mix (an app's
    kinds have no model of their own)."""
    scenario = asked.scenario
    if asked.app or not judged.kinds or not scenario_mix.is_mix(scenario):
        return ()
    fit = {id(lv) for lv in judged.knee.fit_levels}
    passes = [(hgrm_files.COARSE, judged.tables.levels), *((fine.name, fine.tables.levels) for fine in judged.fine)]
    held = {(name, level_number(lv.position)) for name, levels in passes for lv in levels if id(lv) in fit}
    return kinds.holds(judged.kinds, scenario_mix.fractions(scenario), held)


def concurrency_limit(label: str, live: dict[str, object], asked: Asked) -> float | None:
    """virtual-limited's limit as the service reported it (-1: none), else as asked (VIRTUAL_LIMIT); None elsewhere."""
    if base_mode(label) != guards.VIRTUAL_LIMITED:
        return None
    reported = as_float(live.get(metrics.DOWNSTREAM_CONCURRENCY_LIMIT))
    return reported if reported and reported > 0 else float(guards.virtual_limit(asked))


def level_holds(healthy: list[Level]) -> list[models.LevelHold]:
    """What each healthy level says of how long a request holds a thread or connection (models.baseline_hold)."""
    return [
        models.LevelHold(lv.ok_rps, lv.latency.p50_ms, lv.latency.mean_ms, lv.evidence.downstream_ms_mean)
        for lv in healthy
        if lv.latency is not None and lv.latency.p50_ms
    ]
