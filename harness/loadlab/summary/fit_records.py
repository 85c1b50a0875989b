"""Every figure summary.json gives as a line fitted or a formula with its interval — a prediction, the CPU ceiling
and each role's CPU line, a cost per request — as one record, FitRecord, and the mode's costs (`costs`).

summary.json spells the three shapes with their own keys (a prediction's `rps`/`interval_rps`/`fitted_on_rps`, a
cost's `slope`/`interval`/`range`, a role's `ms_per_request`); `value`, `band` and `fitted_on` read any of them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from loadlab.summary.record_fields import LIST, ONE, Fields


@dataclass(frozen=True)
class FitRecord(Fields):
    """A slope or a rate with its 95% interval, what it was fitted or measured on and how sure it is."""

    # a prediction (analysis/prediction.Prediction.as_dict) and the CPU ceiling (analysis/cpufit.CpuCeiling.as_dict)
    predicted_by: str | None = None
    rps: float | None = None
    interval_rps: list | None = None
    # a cost per request (summary/slope_fit.Fit.as_dict)
    not_a_figure: str | None = None
    slope: float | None = None
    interval: list | None = None
    # a role's CPU line (cpufit.RoleFit.as_dict) and the ceiling's host
    role: str | None = None
    host: str | None = None
    cores: float | None = None
    ms_per_request: float | None = None
    fixed_cores: float | None = None
    levels: int | None = None
    fitted_on_rps: list | None = None
    r2: float | None = None
    r2_min: float | None = None
    points: Any = None  # a cost's count of points; a role's [x, y] points
    range: list | None = None
    roles: list[FitRecord] | None = None
    measured_levels: int | None = None
    quality: str | None = None
    formula: str | None = None
    knee_utilization: float | None = None
    knee_rps: float | None = None
    knee_interval_rps: list | None = None
    knee_read_off: str | None = None
    # a prediction whose interval starts far above every rate the run offered (prediction.FAR_ABOVE_RUN): "no limit
    # below" its low end, never the mode's prediction
    beyond_run: bool | None = None
    NESTED: ClassVar = {}

    @property
    def value(self) -> float | None:
        """The figure: a rate, a slope or a role's CPU per request."""
        for name in ("rps", "slope", "ms_per_request"):
            if name not in self.absent:
                return getattr(self, name)
        return None

    @property
    def band(self) -> list | None:
        """Its 95% interval, [low, high] (high None: no upper end)."""
        return self.interval_rps if "interval_rps" not in self.absent else self.interval

    @property
    def fitted_on(self) -> list | None:
        """The range of x it was fitted (or its inputs measured) on."""
        return self.fitted_on_rps if "fitted_on_rps" not in self.absent else self.range


FitRecord.NESTED = {"roles": (LIST, FitRecord)}


@dataclass(frozen=True)
class CostsRecord(Fields):
    """A mode's costs per request and per request in flight (summary/cost_fits.mode_costs), each fit a FitRecord."""

    memory: str | None = None
    memory_per_inflight: FitRecord | None = None
    live_heap_per_inflight: FitRecord | None = None
    rss_per_inflight: FitRecord | None = None
    thread_stacks_per_inflight: FitRecord | None = None
    context_switches_per_request: FitRecord | None = None
    context_switches_source: str | None = None
    bytes_allocated_per_request: FitRecord | None = None
    levels_fitted: list[int] | None = None
    fitted_on: dict | None = None  # pass name → the indices of its levels fitted on
    fitted_on_text: str | None = None
    missing: list[str] | None = None
    NESTED: ClassVar = {
        name: (ONE, FitRecord)
        for name in (
            "memory_per_inflight",
            "live_heap_per_inflight",
            "rss_per_inflight",
            "thread_stacks_per_inflight",
            "context_switches_per_request",
            "bytes_allocated_per_request",
        )
    }
