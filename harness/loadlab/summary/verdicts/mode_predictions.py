"""A mode's predictions as summary.json spells them: the lowest limit with its interval and fit, every limit that
applies, the CPU ceiling kept as the bound it is, and whether the measured knee agrees with the prediction."""

from __future__ import annotations

from dataclasses import dataclass

from loadlab.analysis import cpufit, models
from loadlab.analysis.knee import Knee
from loadlab.analysis.levels import Level
from loadlab.analysis.prediction import (
    MeasuredKnee,
    Prediction,
    agreement,
    beyond,
    beyond_run,
    held_verdict,
    interval_list,
    no_limit_text,
    range_list,
    rate_text,
)
from loadlab.analysis.validity import ValidityContext
from loadlab.core.app import THREAD_SERVICE
from loadlab.summary.judge import knee_record
from loadlab.summary.judge.app_pool import PoolAtKnee
from loadlab.summary.schema.fit_records import CpuCeilingRecord, PredictedRecord, PredictionRecord, RoleCpuRecord


@dataclass(frozen=True)
class ModePredictions:
    """A mode's predictions as its record holds them (records.ModeRecord's fields of the same names)."""

    predicted: PredictedRecord
    cpu_ceiling_rps: int | None
    cpu_ceiling: CpuCeilingRecord | None
    predictions: list[PredictionRecord]
    limit_met_first: str
    # the models as the analysis holds them, those within the run's reach (a model far above it names no limit the
    # run could see: prediction.FAR_ABOVE_RUN), and the one the knee met first (None: none met)
    within: tuple[Prediction, ...] = ()
    met: Prediction | None = None


def predicted(
    inputs: models.Inputs,
    ceiling: cpufit.CpuCeiling | None,
    knee: Knee,
    levels: list[Level],
    ctx: ValidityContext,
    ok_ratio: float = 1.0,
    pool_at_knee: PoolAtKnee | None = None,
    service: str = THREAD_SERVICE,
    max_error_ratio: float = 0.01,
) -> ModePredictions:
    """ok_ratio, max_error_ratio: the health rule's (Thresholds), the resolution of the measured knee (MeasuredKnee)
    and what makes a level's errors its failure; pool_at_knee: an app's pool full at the knee (app_pool.py);
    service: what prose calls the service under test."""
    found = models.applicable(inputs)
    top = top_offered(knee, levels)
    prediction = models.predict(inputs, top)
    # a model far above every rate offered is no prediction of this run (prediction.FAR_ABOVE_RUN): listed, flagged,
    # never judged nor named as the limit met first
    within = [p for p in found if not beyond_run(p, top)]
    # the highest rate held: a knee that did not reproduce leaves the highest rate a fine pass held healthy, and a
    # climb above it the highest rate the climb held, a bound below levels set aside the highest rate held on trusted
    # levels; otherwise the coarse stairs' top
    held_in_a_pass = knee.not_reproduced or knee.climbed or knee.bound
    peak = knee.sustained_rps if held_in_a_pass else max((lv.target_rps for lv in levels), default=None)
    if prediction is None and found:
        judged = beyond(found, top or 0.0)
    else:
        judged = agreement(prediction, measured(knee, knee.collapsed, peak, ok_ratio))
    met_first = knee_record.limit_met_first(
        within, knee, knee.collapsed, peak, ctx, pool_at_knee, service, max_error_ratio, ok_ratio
    )
    if len(within) < len(found):
        floors = ", ".join(no_limit_text(p) for p in found if p not in within)
        met_first += f"; beyond the run, naming no limit: {floors}"
    return ModePredictions(
        predicted=PredictedRecord(
            rps=None if prediction is None else round(prediction.rps),
            interval_rps=None if prediction is None else interval_list(prediction.interval),
            fitted_on_rps=None if prediction is None else range_list(prediction.fitted_on),
            r2=None if prediction is None else _rounded(prediction.r2, 3),
            quality=None if prediction is None else prediction.quality(),
            predicted_by=None if prediction is None else prediction.predicted_by,
            formula=None if prediction is None else prediction.formula,
            agrees=judged.agrees,
            verdict=judged.verdict,
            check=judged.words,
        ),
        cpu_ceiling_rps=None if ceiling is None else round(ceiling.rps),
        cpu_ceiling=None if ceiling is None else ceiling_record(ceiling),
        predictions=[
            prediction_record(p, p not in within, None if knee.collapsed or peak is None else (peak, ok_ratio))
            for p in sorted(found, key=lambda p: p.rps)
        ],
        limit_met_first=met_first,
        within=tuple(within),
        met=knee_record.met_first(within, knee, ok_ratio) if knee.collapsed else None,
    )


def prediction_record(p: Prediction, beyond: bool, held: tuple[float, float] | None = None) -> PredictionRecord:
    """beyond: its interval starts far above every rate the run offered (prediction.beyond_run); held: the rate a
    mode that never collapsed held and the health rule's OK ratio, which say whether the model is still ahead."""
    return PredictionRecord(
        predicted_by=p.predicted_by,
        rps=round(p.rps),
        interval_rps=interval_list(p.interval),
        fitted_on_rps=range_list(p.fitted_on),
        r2=_rounded(p.r2, 3),
        levels=p.levels,
        measured_levels=p.measured_levels,
        quality=p.quality(),
        formula=p.formula,
        beyond_run=beyond,
        run_verdict=None if held is None or beyond else held_verdict(p, *held),
    )


def ceiling_record(ceiling: cpufit.CpuCeiling) -> CpuCeilingRecord:
    knee = ceiling.knee()
    return CpuCeilingRecord(
        rps=round(ceiling.rps),
        interval_rps=interval_list(ceiling.interval),
        host=ceiling.host,
        cores=ceiling.cores,
        ms_per_request=round(ceiling.ms_per_request, 3),
        fixed_cores=round(ceiling.fixed_cores, 3),
        levels=ceiling.levels,
        fitted_on_rps=range_list(ceiling.fitted_on),
        r2=_rounded(ceiling.total.r2 if ceiling.total else None, 3),
        r2_min=_rounded(ceiling.r2_min, 3),
        roles=[role_record(r) for r in ceiling.roles],
        formula=ceiling.formula(),
        knee_utilization=models.CPU_KNEE_UTILIZATION,
        knee_rps=None if knee is None else round(knee[0]),
        knee_interval_rps=None if knee is None else interval_list(knee[1]),
        knee_read_off=None if ceiling.busy is None else ceiling.busy.what,
    )


def role_record(role: cpufit.RoleFit) -> RoleCpuRecord:
    return RoleCpuRecord(
        role=role.role,
        ms_per_request=round(role.ms_per_request, 3),
        fixed_cores=round(role.fixed_cores, 3),
        levels=role.levels,
        r2=_rounded(role.r2, 3),
        points=[[round(x, 1), round(y, 1)] for x, y in role.points],
    )


def _rounded(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def top_offered(knee: Knee, levels: list[Level]) -> float | None:
    """The highest rate the run offered this mode: its trusted levels' top, or a fine pass's or climb's above it."""
    bracket = knee.interval
    rates = [lv.target_rps for lv in levels] + [knee.sustained_rps or 0.0, bracket.unhealthy if bracket else 0.0]
    return max(rates) or None


def measured(knee: Knee, collapsed: bool, peak: float | None, ok_ratio: float = 1.0) -> MeasuredKnee:
    bracket = knee.interval
    return MeasuredKnee(
        collapsed,
        None if bracket is None else (bracket.healthy or None, bracket.unhealthy),
        peak,
        fuzzy_knee(knee),
        ok_ratio,
    )


def fuzzy_knee(knee: Knee) -> str | None:
    """A later pass that found unhealthy a rate the bracket holds healthy: the knee moved between passes, in words
    with the host's CPU there (near the CPU limit the machine's own noise decides a level)."""
    if knee.interval is None or not knee.interval.healthy:
        return None
    for p in knee.passes:
        flipped = [
            lv
            for lv, (healthy, _) in zip(p.levels, p.verdict.health)
            if not healthy and lv.target_rps <= knee.interval.healthy
        ]
        if flipped:
            lv = flipped[0]
            host = lv.evidence.host_cpu_pct
            busy = f" with the host's CPU at {host:.0f}%" if host is not None else ""
            return (
                f"{p.name} found {rate_text(lv.target_rps)} rps unhealthy{busy}, which an earlier pass measured healthy"
            )
    return None
