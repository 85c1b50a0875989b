"""One mode's verdict as summary.json spells it: its knee, its prediction and whether it can be trusted, from the
mode judged (judging.py); what bench saw go wrong per mode."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from loadlab.analysis import cpufit, measured_pool, split_checks
from loadlab.analysis.levels import Level, level_number
from loadlab.analysis.refine import why_not_refined
from loadlab.analysis.validity import (
    CPU_SATURATED_RATIO,
    ValidityContext,
    machine_saturated,
    shares_one_machine,
)
from loadlab.analysis.validity import notes as validity_notes
from loadlab.core import app, guards, metrics, scenario_mix
from loadlab.core.asked import Asked
from loadlab.core.runrecord import RunRecord
from loadlab.core.summary_inputs import Inputs
from loadlab.core.thresholds import Thresholds
from loadlab.summary.judge import (
    app_pool,
    appcheck,
    cost_fits,
    crash,
    jsonform,
    knee_record,
    shedding,
    threadlocal,
    wait_knee,
)
from loadlab.summary.judge.judging import JudgedMode, thread_cores
from loadlab.summary.judge.mode_inputs import level_holds, mix_holds, model_inputs
from loadlab.summary.reading.labels import mode_jdk
from loadlab.summary.reading.raw import RawMode, error_kind_meanings, error_kind_order, inflight_cap_stop
from loadlab.summary.reading.values import as_float
from loadlab.summary.schema.detail_records import DbPoolRecord
from loadlab.summary.schema.fit_records import PredictedRecord
from loadlab.summary.verdicts import brownout_figures as brownout_record
from loadlab.summary.verdicts import fanout_record, level_notes, mode_predictions, prescription_record
from loadlab.summary.verdicts.records import (
    JvmRecord,
    KneeRecord,
    LimitRecord,
    ModeRecord,
    RequestCostRecord,
    StopRecord,
    ValidityRecord,
)


def mode_summary(
    judged: JudgedMode, run: RunRecord, inputs: Inputs, target: str | None, mode_dir: Path | None = None
) -> ModeRecord:
    mode, raw, tables, verdict, knee, ctx = (
        judged.label,
        judged.raw,
        judged.tables,
        judged.verdict,
        judged.knee,
        judged.ctx,
    )
    levels = tables.levels
    reasons = [judged.crash_reason] if judged.crash_reason else []
    reasons += judged.invalid_reasons
    notes = validity_notes(levels, verdict, ctx)
    asked = inputs.asked
    missing = [m for m in raw.missing if not (asked.app and m.endswith(app.NOT_RECORDED))]
    gaps = [*tables.evidence_gaps, *(g for fine in judged.fine for g in fine.tables.evidence_gaps)]
    missing += [g.sentence() for g in gaps]
    if run.modes_completed is not None and mode not in run.modes_completed:
        reasons.append("this mode did not finish (the run was interrupted or failed)")
        missing.append(f"{mode}: the run of this mode did not finish")
    if not tables.timeline:
        missing.append(f"{mode}: no measured phase in seconds.csv")
    reasons.extend(judged.config_mismatches)
    requested = inputs.load.refine
    not_refined = why_not_refined(knee, requested, run.refine_skipped.get(mode))
    note = knee_record.closing_note(knee, ctx)
    if note:
        notes.append(note)
    ceiling = cpufit.ceiling_of_levels(
        knee.fit_levels, shares_one_machine(target), len(raw.injectors), thread_cores(raw), ctx.split
    )
    aside = level_notes.set_aside_levels(judged)
    notes.extend(level_notes.notes(judged, aside, asked))
    # What a request and a thread cost (cost_fits.py), before the predictions: the memory ceiling is fitted on it.
    cost = cost_fits.mode_costs(raw, tables.t0, jsonform.level_records(levels, verdict), used_fine_levels(judged))
    memory = cost_fits.memory_ceiling(raw, cost.costs, cost.levels, knee.baseline_p50_ms)
    call = inputs.call
    own_pool = measured_pool.of_levels(_measured_levels(judged), knee.fit_levels)
    models_in = replace(
        model_inputs(mode, raw, levels, verdict, asked, target, ceiling, ctx.split),
        memory_ceiling=memory,
        app_pool=app_pool.size(raw),
        # every healthy level the knee stands on, coarse and fine, each read with its own pass's first second
        app_pool_hold=app_pool.hold(raw, [(lv, t0_of(judged, lv)) for lv in knee.fit_levels]),
        healthy_holds=tuple(level_holds(knee.fit_levels)),
        wait=inputs.wait,
        kinds=mix_holds(judged, asked),
        fanout=fanout_record.shape(mode, raw.live_config, asked, call),
        measured_pool=measured_pool.predict(own_pool),
        measured_pool_size=own_pool.size if own_pool else None,
    )
    pool_at_knee = app_pool.at_knee(raw, t0_of(judged, knee.closing), knee.closing) if knee.collapsed else None
    service = app.service_label(asked)
    thresholds = Thresholds.from_mapping(run.thresholds)
    stops = [inj.meta for inj in raw.injectors]
    stop_reasons = sorted({m.stop_reason for m in stops if m.stop_reason})
    first_bad = jsonform.first_unhealthy_level(levels, verdict)  # its number, as the levels' records count
    rejected = shedding.rejections(mode, guards.virtual_limit(asked), cost.levels, knee.collapsed, first_bad)
    notes.extend(filter(None, [shedding.words(rejected)]))
    trusted = verdict.trusted(levels)  # the highest rate held is read on these: a level set aside proves nothing
    # The health rule's OK ratio is the knee's resolution (prediction.MeasuredKnee).
    pred = mode_predictions.predicted(
        models_in, ceiling, knee, trusted, ctx, thresholds.ok_ratio, pool_at_knee, service, thresholds.max_error_ratio
    )
    waits = wait_knee.of(knee, judged.no_wait_profile, run.wait_profile, judged.wait_agent_stopped)
    missing += waits.missing
    limit_met_first = waits.limit_met_first(pred.limit_met_first)
    sustained = jsonform.plain_number(round(knee.sustained_rps, 1))
    jdk = mode_jdk(mode, asked.jdk)
    through = None
    plan = inputs.load.brownout
    if plan is not None and mode_dir is not None:  # the mode through the brownout (brownout_figures.py)
        through = brownout_record.record(judged, mode_dir, run, plan, asked)
        # An instrument that failed through the brownout (brownout_figures.py: recovery not judged) voids the mode too.
        problems = through.instrument_problems if through is not None else []
        reasons = reasons + [why for why in problems if why not in reasons]
    evidence = None
    out_of_cpu = knee.collapsed and knee.closing is not None and cpu_ran_out(knee.closing, ctx)
    if asked.app:  # an application under test: the evidence its live-config check read (judging.py)
        predicted = [r.rps for r in pred.predictions if r.rps is not None]
        evidence = appcheck.app_evidence(
            raw, mode, asked.pool, predicted, sustained, knee.collapsed, limit_met_first, out_of_cpu
        )
        notes.extend(filter(None, [evidence.unexplained_limit]))
    return ModeRecord(
        sustained_rps=sustained,
        collapsed=knee.collapsed,  # the coarse verdict's, unless a fine pass did not reproduce its knee
        predicted=pred.predicted,
        cpu_ceiling_rps=pred.cpu_ceiling_rps,
        cpu_ceiling=pred.cpu_ceiling,
        predictions=pred.predictions,
        limit=LimitRecord(
            met_first=limit_met_first,
            evidence_at_knee=knee_record.evidence_at(knee.closing, service) if knee.closing is not None else None,
            waits_at_knee=waits.sentence,
            waits_at_knee_site=waits.site,
            prescription=prescription_record.of(
                models_in, knee, pred.within, pred.met, asked, cost.memory_per_inflight_kb, out_of_cpu
            ),
        ),
        knee=KneeRecord(
            interval_rps=jsonform.interval(knee.interval),
            refine=knee_record.refine_record(knee, judged.fine, requested, not_refined),
            # no trusted level was unhealthy but some above the highest rate held were set aside: a lower bound
            bound=knee.bound,
            set_aside_levels=[entry.record for entry in aside],
        ),
        baseline_p50_ms=knee.baseline_p50_ms,
        baseline_from=_baseline_from(judged),
        p99_ms_at_sustained=knee.p99_ms_at_sustained,
        requests=tables.requests,
        errors=tables.errors,
        rejections=rejected,
        validity=ValidityRecord(valid=not reasons, invalid_reasons=reasons, notes=notes),
        levels=cost.levels,
        request_cost=RequestCostRecord(
            memory_per_inflight_kb=cost.memory_per_inflight_kb,
            context_switches_per_request=cost.context_switches_per_request,
            bytes_allocated_per_request=cost.bytes_allocated_per_request,
            fits=cost.costs,
        ),
        first_unhealthy_level=first_bad,
        p99_limit_ms=None if verdict.p99_limit_ms is None else round(verdict.p99_limit_ms),
        jvm=JvmRecord(
            pinned_virtual_threads=raw.pinned,
            threadlocal=threadlocal.summary_of(raw, tables, asked.threadlocal_kb),
            jdk=jdk,
            java_runtime=run.java_runtimes.get(str(jdk)) if jdk is not None else None,
            carriers=as_float(raw.live_config.get(metrics.VIRTUAL_SCHEDULER_PARALLELISM)),
        ),
        db_pool=pool_evidence(raw, levels, asked),
        stop=StopRecord(
            early=any(m.stopped_early for m in stops),
            reason="; ".join(stop_reasons) or None,
            inflight_cap=inflight_cap_stop(raw.injectors),
        ),
        missing=missing,
        live_config=raw.live_config or None,
        error_kinds=error_kind_order(raw.injectors),
        error_kind_meanings=guards.kind_meanings(error_kind_meanings(raw.injectors), mode, asked),
        crashed=None if judged.crashed is None else crash.of(judged.crashed),
        levels_dropped_after_crash=[level_number(p) for p in judged.crash_tables.dropped_levels],
        evidence_gaps=[g.record() for g in gaps],
        app_evidence=evidence,
        # APP_REQUESTS: each kind of the mix on its own (kinds.py)
        kinds=judged.kinds or None,
        kind_first=judged.kind_first,
        brownout=through,
        # the shape, the tail of the slowest call, the calls left behind (fanout_record.py)
        fanout=fanout_record.record(mode, raw.live_config, asked, call, levels, knee.fit_levels),
    )


def _measured_levels(judged: JudgedMode) -> list[Level]:
    """Every level the knee stands on or was judged with: the coarse pass's and each used fine pass's."""
    return [*judged.tables.levels, *(lv for o in judged.knee.passes if o.used for lv in o.levels)]


def used_fine_levels(judged: JudgedMode) -> list[cost_fits.FinePassLevels]:
    """Every used fine pass's levels as summary.json spells them, for the cost fits (a pass not used measured a
    state the knee does not stand on: its levels are kept on the page, not fitted)."""
    by_name = {fine.name: fine for fine in judged.fine}
    return [
        cost_fits.FinePassLevels(
            outcome.name,
            by_name[outcome.name].raw,
            by_name[outcome.name].tables.t0,
            jsonform.level_records(outcome.levels, outcome.verdict),
        )
        for outcome in judged.knee.passes
        if outcome.used and outcome.name in by_name
    ]


def t0_of(judged: JudgedMode, level: Level | None) -> int | None:
    """The first measured second of the pass a level belongs to (a fine level counts from its own pass's start)."""
    for fine in judged.fine:
        if any(lv is level for lv in fine.tables.levels):
            return fine.tables.t0
    return judged.tables.t0


def pool_evidence(raw: RawMode, levels: list[Level], asked: Asked) -> DbPoolRecord | None:
    """The db scenario's pool as sampled: its size, the most connections in use and requests waiting, and the
    first level where requests waited for a connection (the pool, not the threads, was the queue)."""
    if not scenario_mix.has(asked, "db"):
        return None
    active = [r.metric(metrics.DB_POOL_ACTIVE) for r in raw.jvm.values()]
    pending = [r.metric(metrics.DB_POOL_PENDING) for r in raw.jvm.values()]
    size = next((v for v in (r.metric(metrics.DB_POOL_MAX) for r in raw.jvm.values()) if v), None)
    waited = next((level_number(lv.position) for lv in levels if (lv.evidence.db_pool_pending or 0) >= 1), None)
    return DbPoolRecord(
        size=size or as_float(raw.live_config.get(metrics.DB_POOL_MAX)) or float(asked.db_pool),
        active_max=max((v for v in active if v is not None), default=None),
        pending_max=max((v for v in pending if v is not None), default=None),
        first_level_with_pending=waited,
    )


def failed_mode(reason: str) -> ModeRecord:
    """A mode whose analysis failed: nothing known (no limit met, no knee placed, no cost fitted: none of their keys)
    but the fields its verdict can still give, and why; the figures it always writes as null."""
    return ModeRecord.unknown().with_fields(
        sustained_rps=0,
        collapsed=False,
        predicted=PredictedRecord.nulls().only("rps", "interval_rps", "predicted_by", "formula", "agrees"),
        baseline_p50_ms=None,
        p99_ms_at_sustained=None,
        requests=0,
        errors=0,
        validity=ValidityRecord(valid=False, invalid_reasons=[reason], notes=[]),
        levels=[],
        first_unhealthy_level=None,
        p99_limit_ms=None,
        jvm=JvmRecord.unknown().with_fields(pinned_virtual_threads=None),  # written as null, the rest left out
        stop=StopRecord(early=False, reason=None, inflight_cap=None).only("reason"),
        missing=[reason],
    )


def cpu_ran_out(level: Level, ctx: ValidityContext) -> bool:
    """The service's CPU was used up at this level: the whole shared machine, or (SERVICE_CPUS) its own cores."""
    if ctx.split is not None:
        return split_checks.service_saturated(level, ctx.split, CPU_SATURATED_RATIO) is not None
    return machine_saturated(level, ctx)


def _baseline_from(judged: JudgedMode) -> str | None:
    """Where the baseline came from, in words: the coarse pass's, or, when its warm-up ended behind and the stairs
    were measured again after a second one (summary/judge/warmup.py), that pass's own."""
    again = next((o for o in judged.knee.passes if o.name == judged.warm_up.stands_on), None)
    if again is not None and again.verdict.baseline is not None:
        return f"{again.name}, after a second warm-up: {again.verdict.baseline.said}"
    return judged.verdict.baseline.said if judged.verdict.baseline else None
