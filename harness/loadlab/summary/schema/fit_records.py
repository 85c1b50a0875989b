"""Every figure summary.json gives as a line fitted or a formula with its interval, one record per kind: a model's
prediction (PredictionRecord) and the one its mode is judged on (PredictedRecord), the CPU ceiling (CpuCeilingRecord)
with each role's CPU line (RoleCpuRecord), a cost per request (CostSlopeRecord); and the mode's costs (CostsRecord).
Each is built by its constructor from the analysis object it spells (summary/verdicts/mode_predictions.py,
summary/judge/cost_fits.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from loadlab.summary.schema.record_fields import SOME_RUNS, Fields, Interval, Key, Range


@dataclass(frozen=True, kw_only=True)
class PredictionRecord(Fields):
    """One model's limit (analysis/prediction.Prediction): its rate with the interval its inputs allow, the rates
    those inputs were measured at and how well a line fitted them."""

    predicted_by: str | None
    rps: float | None
    interval_rps: Interval | None  # [low, high]; high None: no upper end
    fitted_on_rps: Range | None
    r2: float | None
    levels: int | None  # a fitted line's levels
    measured_levels: int | None  # the healthy levels a formula's inputs were read at
    quality: str | None
    formula: str | None
    # an interval that starts far above every rate the run offered (prediction.FAR_ABOVE_RUN): "no limit below" its
    # low end, never the mode's prediction
    beyond_run: bool | None
    # a mode that held its stairs: `ahead` (above the highest rate held), `held past its figure` (a rate above it was
    # held healthy, its interval reaches above), `refuted by the run` (held above its whole interval); null for a mode
    # that collapsed (its knee judges the prediction) and a model beyond the run (prediction.held_verdict)
    run_verdict: str | None


@dataclass(frozen=True, kw_only=True)
class PredictedRecord(Fields):
    """A mode's prediction, the lowest limit within the run (summary/verdicts/mode_predictions.py), and how its measured
    knee compares with it. summary.json spells it inline in the mode, as its flat `predicted_*`/`prediction_*` keys
    (ModeRecord.predicted, record_fields.Inline); without a prediction every figure is None."""

    rps: Annotated[int | None, Key("predicted_rps")]
    # None when the inputs gave no spread (one value): a point is never written as an interval
    interval_rps: Annotated[Interval | None, Key("predicted_interval_rps")]
    fitted_on_rps: Annotated[Range | None, Key("predicted_fitted_on_rps")]
    r2: Annotated[float | None, Key("predicted_r2")]
    quality: Annotated[str | None, Key("prediction_quality")]
    predicted_by: str | None
    formula: Annotated[str | None, Key("prediction")]
    # the measured knee against it: agrees (None: not judged), the verdict's word, the sentence that explains it
    agrees: Annotated[bool | None, Key("prediction_agrees")]
    verdict: Annotated[str | None, Key("prediction_verdict")]
    check: Annotated[str | None, Key("prediction_check")]


@dataclass(frozen=True, kw_only=True)
class RoleCpuRecord(Fields):
    """One role's CPU line (analysis/cpufit.RoleFit): CPU per OK request, what it spends whatever the rate, and the
    [OK rps, % of one core] points it was fitted on."""

    role: str | None
    ms_per_request: float | None
    fixed_cores: float | None
    levels: int | None
    r2: float | None
    points: list[list[float]] | None


@dataclass(frozen=True, kw_only=True)
class CpuCeilingRecord(Fields):
    """The utilization law's ceiling (analysis/cpufit.CpuCeiling): every core busy, from the roles' CPU lines, and the
    knee read off the busy line below it."""

    rps: float | None
    interval_rps: Interval | None
    host: str | None
    cores: float | None
    ms_per_request: float | None
    fixed_cores: float | None
    levels: int | None
    fitted_on_rps: Range | None
    r2: float | None
    r2_min: float | None
    roles: list[RoleCpuRecord] | None
    formula: str | None
    knee_utilization: float | None
    knee_rps: float | None
    knee_interval_rps: Interval | None
    knee_read_off: str | None


@dataclass(frozen=True, kw_only=True)
class CostSlopeRecord(Fields):
    """A cost per request or per request in flight (summary/judge/slope_fit.Fit): the slope with its 95% interval, or
    why the data cannot carry it as a figure."""

    not_a_figure: str | None
    slope: float | None
    interval: Range | None
    r2: float | None
    points: int | None
    range: Range | None  # the x it was fitted on, [low, high]


@dataclass(frozen=True, kw_only=True)
class CostsRecord(Fields):
    """A mode's costs per request and per request in flight (summary/judge/cost_fits.mode_costs)."""

    memory: str | None
    memory_per_inflight: CostSlopeRecord | None
    live_heap_per_inflight: CostSlopeRecord | None
    rss_per_inflight: CostSlopeRecord | None
    thread_stacks_per_inflight: CostSlopeRecord | None
    context_switches_per_request: CostSlopeRecord | None
    context_switches_source: str | None
    bytes_allocated_per_request: CostSlopeRecord | None
    levels_fitted: list[int] | None  # the coarse levels fitted on, by number (from 1)
    fitted_on: dict[str, list[int]] | None  # pass name → the numbers (from 1) of its levels fitted on
    fitted_on_text: str | None
    missing: Annotated[list[str] | None, SOME_RUNS] = None
