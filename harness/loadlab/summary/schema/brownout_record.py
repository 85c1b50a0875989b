"""summary.json's per-mode `brownout` (PROFILE=brownout) as a typed record: summary/verdicts/brownout_figures.py fills
it, records.py holds it in the ModeRecord, the page and the console read it by attribute."""

from __future__ import annotations

from dataclasses import dataclass, field

from loadlab.analysis.brownout_judge import Predicted
from loadlab.summary.schema.record_fields import Interval


@dataclass(frozen=True)
class BrownoutPrediction:
    """One of `brownout.predicted` (analysis/brownout_judge.Predicted, rounded): the figure at the configured holds,
    the interval to the figure at the holds the service measured, and the formula in words."""

    value: float | None  # None: the model has no figure (a pool that cannot drain at this rate)
    interval: Interval  # [low, high], either None
    formula: str

    @classmethod
    def of(cls, predicted: Predicted, digits: int = 0) -> BrownoutPrediction:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, digits) if digits else round(x)

        return cls(r(predicted.value), [r(predicted.low), r(predicted.high)], predicted.formula)


@dataclass(frozen=True)
class BrownoutRecord:
    """summary.json's `brownout` of one mode (docs/RESULTS.md): every field its key, as summary/schema/record_fields
    spells a plain dataclass."""

    rate_rps: float
    brownout_ms: int
    window_s: list[int]  # [start, end) in seconds of the measured phase
    window_epoch_ms: list[int] | None  # as scheduled on the delay-service
    goodput_rps: float | None
    error_share: float | None
    peak_inflight: int | None  # sent, not yet answered, as the injectors saw it
    peak_service_inflight: float | None  # in the service's handlers (/actuator/loadlab)
    peak_heap_mb: float | None
    peak_rss_mb: float | None
    peak_threads: float | None
    recovery_seconds: int | None
    recovery: str  # in words, always
    predicted: dict[str, BrownoutPrediction] | None  # by figure: inflight_peak, goodput_rps, recovery_s
    prediction_note: str
    # the seconds the delay-service's answers were the brownout's, by its own record
    served_slow_s: list[int | None] | None
    instrument_problems: list[str] = field(default_factory=list)
