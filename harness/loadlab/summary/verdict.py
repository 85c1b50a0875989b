"""The verdict of one mode (knee, prediction, validity) and of the run (the ratio), as summary.json spells them."""

from __future__ import annotations

from dataclasses import replace

from .. import analysis, cpufit, limits, metrics, models
from ..runrecord import RunRecord
from . import costs, predictions
from . import crash as crashes
from . import knee as knees
from .raw import STATUS_504, TIMEOUT_INJECTOR, RawMode, error_kind_meanings, error_kind_order, inflight_cap_stop
from .seconds import Tables
from .values import as_float


def mode_summary(
    mode: str,
    raw: RawMode,
    tables: Tables,
    run: RunRecord,
    params: dict,
    thresholds: analysis.Thresholds,
    target: str | None,
    fine_passes: list[knees.FinePass] | None = None,
    crashed: dict | None = None,
    crash_tables: Tables | None = None,
) -> dict:
    """crashed: where a role died (crash.summary), crash_tables: the tables of the pass it died in."""
    levels = tables.levels
    verdict = analysis.judge(levels, thresholds)
    expected = expected_ms(params)
    healthy_max = max(verdict.p99_limit_ms or 0.0, thresholds.p99_limit_ms(expected) if expected else 0.0)
    ctx = analysis.ValidityContext(
        delay_ms=as_float(params.get("DELAY_MS")),
        shared_machine=analysis.shares_one_machine(target),
        cpu_is_the_limit=params.get("SCENARIO") == "cpu",
        limits=limits_in_force(raw, run.limits, params),
        healthy_max_ms=healthy_max or None,
    )
    reasons = [crashes.reason(crashed, crash_tables or tables)] if crashed else []
    reasons += analysis.validity(levels, verdict, ctx)
    notes = analysis.notes(levels, verdict, ctx)
    missing = list(raw.missing)
    gaps = [*tables.evidence_gaps, *(g for fine in fine_passes or [] for g in fine.tables.evidence_gaps)]
    missing += [g.sentence() for g in gaps]
    if run.modes_completed is not None and mode not in run.modes_completed:
        reasons.append("this mode did not finish (the run was interrupted or failed)")
        missing.append(f"{mode}: the run of this mode did not finish")
    if not tables.timeline:
        missing.append(f"{mode}: no measured phase in seconds.csv")
    reasons.extend(live_config_mismatches(mode, raw.live_config, params))
    # The knee after the refinement passes (REFINE=1), and the healthy levels of every pass for the CPU fit.
    knee = knees.refined_knee(
        levels,
        verdict,
        fine_passes or [],
        thresholds,
        ctx,
        requested=str(params["REFINE"]) != "0",
        skipped=run.refine_skipped.get(mode),
        crashed=crashed,
    )
    notes.extend(knee.notes)
    ceiling = cpufit.ceiling_of_levels(
        knee.fit_levels, analysis.shares_one_machine(target), len(raw.injectors), thread_cores(raw)
    )
    level_dicts = [analysis.level_dict(lv, healthy, why) for lv, (healthy, why) in zip(levels, verdict.health)]
    # What a request and a thread cost (costs.py), before the predictions: the memory ceiling is fitted on it.
    cost = costs.mode_costs(raw, tables.t0, level_dicts)
    memory = costs.memory_ceiling(raw, cost, level_dicts, verdict.baseline_p50_ms)
    inputs = replace(model_inputs(mode, raw, levels, verdict, params, target, ceiling), memory_ceiling=memory)
    stops = [inj.meta for inj in raw.injectors]
    stop_reasons = sorted({str(m["stop_reason"]) for m in stops if m.get("stop_reason")})
    first_bad = levels[verdict.first_unhealthy].index if verdict.first_unhealthy is not None else None
    return {
        "sustained_rps": analysis.plain_number(round(knee.sustained_rps, 1)),
        "collapsed": verdict.collapsed,
        **predictions.fields(inputs, ceiling, knee, verdict, levels, ctx),
        "evidence_at_knee": knees.evidence_at(knee.closing) if knee.closing is not None else None,
        **knee.fields(),
        "baseline_p50_ms": verdict.baseline_p50_ms,
        "p99_ms_at_sustained": knee.p99_ms_at_sustained,
        "requests": tables.requests,
        "errors": tables.errors,
        "valid": not reasons,
        "invalid_reasons": reasons,
        "notes": notes,
        "levels": level_dicts,
        **cost,
        "first_unhealthy_level": first_bad,
        "p99_limit_ms": None if verdict.p99_limit_ms is None else round(verdict.p99_limit_ms),
        "pinned_virtual_threads": raw.pinned,
        "jdk": mode_jdk(mode, params),
        "carriers": as_float(raw.live_config.get(metrics.VIRTUAL_SCHEDULER_PARALLELISM)),
        "db_pool": pool_evidence(raw, levels, params),
        "stopped_early": any(bool(m.get("stopped_early")) for m in stops),
        "stop_reason": "; ".join(stop_reasons) or None,
        "stop_inflight_cap": inflight_cap_stop(raw.injectors),
        "missing": missing,
        "live_config": raw.live_config or None,
        "error_kinds": raw_error_kinds(raw),
        "error_kind_meanings": error_kind_meanings(raw.injectors),
        "crashed": crashed,
        "levels_dropped_after_crash": (crash_tables or tables).dropped_levels,
        "evidence_gaps": [g.as_dict() for g in gaps],
    }


def raw_error_kinds(raw: RawMode) -> list[str]:
    """Every kind the simulation can report, in its order (meta.json), so a reader sees which ones stayed at 0."""
    return error_kind_order(raw.injectors)


def expected_ms(params: dict) -> float:
    """What one request should take, from the run's parameters (0 when they do not say)."""
    try:
        return float(limits.expected_ms(params))
    except (KeyError, TypeError, ValueError):
        return 0.0


def completion_lag_s(params: dict) -> int:
    return limits.completion_lag_s(expected_ms(params))


def limits_in_force(raw: RawMode, recorded: dict, params: dict) -> tuple[analysis.HarnessLimit, ...]:
    """Each limit that cuts a request, as it was in force (recorded: params.json's `limits`): the injectors say their
    own timeout in meta.json."""
    said = [as_float((inj.meta.get("timeouts") or {}).get("request_ms")) for inj in raw.injectors]
    said = [x for x in said if x is not None]
    injector = max(said) if said else as_float(recorded.get("injector_request_timeout_ms"))
    found = []
    if injector is not None:
        found.append(
            analysis.HarnessLimit(
                "the injector's request timeout (loadlab.requestTimeoutMs)", injector, TIMEOUT_INJECTOR
            )
        )
    service = as_float(recorded.get("thread_service_timeout_ms"))
    if service is not None:
        found.append(
            analysis.HarnessLimit(
                "the thread-service's downstream timeout (delay-service.timeout)", service, STATUS_504
            )
        )
    database = as_float(recorded.get("database_timeout_ms"))
    if database is not None and params.get("SCENARIO") == "db":
        found.append(analysis.HarnessLimit("the thread-service's database timeout", database, STATUS_504))
    return tuple(found)


def base_mode(label: str) -> str:
    """`virtual-jdk21` → `virtual`: the thread mode of a mode label."""
    return label.split("-jdk", 1)[0]


def mode_jdk(label: str, params: dict) -> int | None:
    """The JDK a mode ran on: from its label with several JDKs (`virtual-jdk21`), else the only one in JDKS."""
    _, _, tail = label.partition("-jdk")
    if tail.isdigit():
        return int(tail)
    jdks = params.get("JDKS")
    if isinstance(jdks, str):
        jdks = jdks.split()
    if isinstance(jdks, list) and len(jdks) == 1 and str(jdks[0]).isdigit():
        return int(jdks[0])
    return None


def thread_cores(raw: RawMode) -> float | None:
    return next((c for c in (as_float(r.get("host_cores")) for r in raw.thread_samples.values()) if c), None)


def model_inputs(
    label: str,
    raw: RawMode,
    levels: list[analysis.Level],
    verdict: analysis.Verdict,
    params: dict,
    target: str | None,
    ceiling: cpufit.CpuCeiling | None = None,
) -> models.Inputs:
    """The numbers the models need, live values first: what the service reported beats what was asked."""
    live = raw.live_config
    cores = thread_cores(raw)
    others = None
    if analysis.shares_one_machine(target) and verdict.sustained_position is not None:
        # Other roles' CPU per request where the load was highest and still healthy: at low rates their fixed
        # per-second costs would inflate it.
        at = levels[verdict.sustained_position]
        others = analysis.cpu_ms_per_request(at.evidence.other_roles_cpu_pct, at.ok_rps)
    first = levels[0] if levels else None
    return models.Inputs(
        mode=base_mode(label),
        scenario=str(params["SCENARIO"]),
        jdk=mode_jdk(label, params),
        threads=as_float(live.get(metrics.TOMCAT_THREADS_MAX)) or as_float(params.get("PLATFORM_THREADS")),
        baseline_ms=verdict.baseline_p50_ms,
        delay_ms=as_float(params.get("DELAY_MS")),
        db_pool=as_float(live.get(metrics.DB_POOL_MAX)) or as_float(params.get("DB_POOL")),
        cpu_ms=as_float(params.get("CPU_MS")),
        cores=cores,
        others_cpu_ms_per_request=others,
        carriers=as_float(live.get(metrics.VIRTUAL_SCHEDULER_PARALLELISM)),
        host_request_threads=raw.host_limits and raw.host_limits.request_threads,
        host_threads_limit=raw.host_limits.describe_threads() if raw.host_limits else "",
        # The utilization law on this mode's own healthy levels (cpufit.py): a CPU-bound mode's knee.
        cpu_ceiling=None if ceiling is None else ceiling.prediction(),
        baseline_rps=first and first.ok_rps,
        baseline_mean_ms=first and first.latency and first.latency.mean_ms,
        downstream_ms=first and first.evidence.downstream_ms_mean,
    )


def pool_evidence(raw: RawMode, levels: list[analysis.Level], params: dict) -> dict | None:
    """The db scenario's pool as sampled: its size, the most connections in use and requests waiting, and the
    first level where requests waited for a connection (the pool, not the threads, was the queue)."""
    if params.get("SCENARIO") != "db":
        return None
    active = [as_float(r.get(metrics.DB_POOL_ACTIVE)) for r in raw.jvm.values()]
    pending = [as_float(r.get(metrics.DB_POOL_PENDING)) for r in raw.jvm.values()]
    size = next((v for v in (as_float(r.get(metrics.DB_POOL_MAX)) for r in raw.jvm.values()) if v), None)
    waited = next((lv.index for lv in levels if (lv.evidence.db_pool_pending or 0) >= 1), None)
    return {
        "size": size or as_float(raw.live_config.get(metrics.DB_POOL_MAX)) or as_float(params.get("DB_POOL")),
        "active_max": max((v for v in active if v is not None), default=None),
        "pending_max": max((v for v in pending if v is not None), default=None),
        "first_level_with_pending": waited,
    }


def live_config_mismatches(mode: str, live: dict, params: dict) -> list[str]:
    """Reasons the mode did not run what was asked, from what the service itself reported at start."""
    reasons = []
    wanted_mode = base_mode(mode)
    if live.get(metrics.THREAD_MODE) not in (None, wanted_mode):
        reasons.append(f"the thread-service ran in {live[metrics.THREAD_MODE]} mode, not {wanted_mode}")
    asked, got = as_float(params.get("PLATFORM_THREADS")), as_float(live.get(metrics.TOMCAT_THREADS_MAX))
    if wanted_mode == "platform" and asked is not None and got is not None and asked != got:
        reasons.append(f"the thread-service ran with {got:.0f} Tomcat threads, not PLATFORM_THREADS={asked:.0f}")
    jdk, ran = mode_jdk(mode, params), as_float(live.get(metrics.JAVA_VERSION_FEATURE))
    if jdk is not None and ran is not None and ran != jdk:
        reasons.append(f"the thread-service ran on Java {ran:.0f}, not the JDK {jdk} asked for")
    pool_asked, pool_got = as_float(params.get("DB_POOL")), as_float(live.get(metrics.DB_POOL_MAX))
    if params.get("SCENARIO") == "db" and pool_asked and pool_got and pool_asked != pool_got:
        reasons.append(f"the thread-service's pool had {pool_got:.0f} connections, not DB_POOL={pool_asked:.0f}")
    return reasons


def failed_mode(reason: str) -> dict:
    return {
        "sustained_rps": 0,
        "collapsed": False,
        "predicted_rps": None,
        "predicted_interval_rps": None,
        "predicted_by": None,
        "prediction": None,
        "prediction_agrees": None,
        "baseline_p50_ms": None,
        "p99_ms_at_sustained": None,
        "requests": 0,
        "errors": 0,
        "valid": False,
        "invalid_reasons": [reason],
        "notes": [],
        "levels": [],
        "first_unhealthy_level": None,
        "p99_limit_ms": None,
        "pinned_virtual_threads": None,
        "stopped_early": False,
        "stop_reason": None,
        "missing": [reason],
    }


def ratios(modes: dict[str, dict], params: dict) -> dict[str, float | None]:
    """virtual / platform per JDK when several ran (`{"21": 0.1, "25": 3.0}`); {} with one JDK."""
    return {jdk: value for jdk, (value, _) in ratios_with_reasons(modes, params).items()}


def ratios_with_reasons(modes: dict[str, dict], params: dict) -> dict[str, tuple[float | None, str | None]]:
    jdks = sorted({j for j in (mode_jdk(label, params) for label in modes if "-jdk" in label) if j is not None})
    return {
        str(j): ratio(
            modes.get(f"virtual-jdk{j}"), modes.get(f"platform-jdk{j}"), (f"virtual-jdk{j}", f"platform-jdk{j}")
        )
        for j in jdks
    }


def headline_ratio(modes: dict[str, dict], params: dict) -> tuple[float | None, str | None]:
    """The contract's `virtual_over_platform` and, when it is null, why: the only pair, or the newest JDK's."""
    per_jdk = ratios_with_reasons(modes, params)
    if per_jdk:
        return per_jdk[max(per_jdk, key=int)]
    return ratio(modes.get("virtual"), modes.get("platform"))


def ratio(
    virtual: dict | None, platform: dict | None, labels: tuple[str, str] = ("virtual", "platform")
) -> tuple[float | None, str | None]:
    """virtual / platform sustained throughput, or None with the reason no ratio can be claimed: a mode missing,
    crashed or invalid (a ratio from a run that cannot be trusted is not a result), or without a sustained level."""
    for name, mode in ((labels[1], platform), (labels[0], virtual)):
        if not mode:
            return None, f"{name} was not measured"
        if mode.get("crashed"):
            return None, f"{name} crashed: {crashes.headline(mode['crashed'])}"
        if not mode.get("valid"):
            first = (mode.get("invalid_reasons") or ["see its reasons"])[0]
            return None, f"{name} is invalid: {first}"
        if not mode.get("sustained_rps"):
            return None, f"{name} sustained no level"
    return round(virtual["sustained_rps"] / platform["sustained_rps"], 2), None
