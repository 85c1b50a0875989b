"""summary.json as typed records: a RunSummary holding a ModeRecord per mode, built by the summary (summary.write)
and read by the page (report/) by attribute. `as_json` is the one place a record becomes summary.json's content;
`from_mapping` reads that content back (`make report` of a written folder, the comparison page).

A field is None where summary.json has null or leaves it out; which fields a record leaves out (a mode whose
analysis failed has fewer, `app_evidence` only with APP, `repeats` only with REPEAT > 1) is kept, so the JSON it
writes is the JSON it was built from, key for key and in the order the fields are declared here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from loadlab.summary.brownout_record import BrownoutRecord
from loadlab.summary.cost_fits import healthy_prefix


class _Fields:
    """What both records share: built from a mapping, spelled back as one (only the fields it had)."""

    absent: frozenset[str]

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]):
        names = [f.name for f in fields(cls) if f.name != "absent"]  # type: ignore[arg-type]
        unknown = set(values) - set(names)
        if unknown:
            raise ValueError(f"{cls.__name__} has no field {', '.join(sorted(unknown))}")
        return cls(**values, absent=frozenset(n for n in names if n not in values))  # type: ignore[call-arg]

    def with_fields(self, **values: Any):
        """A copy with these fields set (and written)."""
        return replace(self, **values, absent=self.absent - set(values))  # type: ignore[type-var]

    def as_json(self) -> dict[str, Any]:
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)  # type: ignore[arg-type]
            if f.name != "absent" and f.name not in self.absent
        }


@dataclass(frozen=True)
class ModeRecord(_Fields):
    """One mode's verdict (summary/verdict.py builds it; docs/RESULTS.md says what each field means)."""

    sustained_rps: float | None = None
    collapsed: bool | None = None
    predicted_rps: int | None = None
    predicted_interval_rps: list | None = None
    predicted_fitted_on_rps: list | None = None
    predicted_r2: float | None = None
    prediction_quality: str | None = None
    predicted_by: str | None = None
    prediction: str | None = None
    prediction_agrees: bool | None = None
    prediction_verdict: str | None = None
    prediction_check: str | None = None
    cpu_ceiling_rps: int | None = None
    cpu_ceiling: dict | None = None
    predictions: list[dict] | None = None
    limit_met_first: str | None = None
    evidence_at_knee: str | None = None
    knee_interval_rps: list | None = None
    refine: dict | None = None
    knee_bound: str | None = None
    set_aside_levels: list[dict] | None = None
    baseline_p50_ms: float | None = None
    p99_ms_at_sustained: float | None = None
    requests: int | None = None
    errors: int | None = None
    valid: bool | None = None
    invalid_reasons: list[str] | None = None
    notes: list[str] | None = None
    levels: list[dict] | None = None
    memory_per_inflight_kb: float | None = None
    context_switches_per_request: float | None = None
    bytes_allocated_per_request: float | None = None
    costs: dict | None = None
    first_unhealthy_level: int | None = None
    p99_limit_ms: int | None = None
    pinned_virtual_threads: int | None = None
    threadlocal: dict | None = None
    jdk: int | None = None
    carriers: float | None = None
    db_pool: dict | None = None
    stopped_early: bool | None = None
    stop_reason: str | None = None
    stop_inflight_cap: dict | None = None
    missing: list[str] | None = None
    live_config: dict | None = None
    error_kinds: list[str] | None = None
    error_kind_meanings: dict | None = None
    crashed: dict | None = None
    levels_dropped_after_crash: list | None = None
    evidence_gaps: list[dict] | None = None
    app_evidence: dict | None = None
    brownout: BrownoutRecord | None = None  # PROFILE=brownout (summary/brownout.py)
    repetition: int | None = None  # REPEAT > 1: the median repetition shown
    folder: str | None = None  # REPEAT > 1: rep-<k>/<label>
    absent: frozenset[str] = field(default=frozenset(), repr=False, compare=False)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> ModeRecord:
        found = values.get("brownout")
        if isinstance(found, Mapping):
            values = {**values, "brownout": BrownoutRecord.from_mapping(found)}
        return super().from_mapping(values)

    def as_json(self) -> dict[str, Any]:
        out = super().as_json()
        if isinstance(out.get("brownout"), BrownoutRecord):
            out["brownout"] = out["brownout"].as_json()
        return out

    @property
    def counted_levels(self) -> list[dict]:
        """The healthy levels before the first unhealthy one: the levels the summary counts (its costs are fitted
        on them); the one rule, cost_fits.healthy_prefix."""
        return healthy_prefix(self.levels or [])

    @property
    def fitted_levels(self) -> list[dict]:
        """The levels a fit over healthy levels stands on: the counted coarse levels, then of each fine pass the knee
        used its healthy levels before its first unhealthy one (what cost_fits.mode_costs fits on, too)."""
        passes = [p for p in (self.refine or {}).get("passes") or [] if p.get("used")]
        return self.counted_levels + [lv for p in passes for lv in healthy_prefix(p.get("levels") or [])]


@dataclass(frozen=True)
class RunSummary(_Fields):
    """A comparison's summary: the run folder's, or one repetition's (`rep-<k>/`)."""

    run_id: str | None = None
    target: str | None = None
    scenario: str | None = None
    params: dict = field(default_factory=dict)
    modes: dict[str, ModeRecord] = field(default_factory=dict)
    virtual_over_platform: float | None = None
    virtual_over_platform_interval: list | None = None
    virtual_over_platform_reason: str | None = None
    virtual_over_platform_basis: str | None = None
    virtual_over_platform_bound: str | None = None
    virtual_over_reactive: float | None = None
    virtual_over_reactive_interval: list | None = None
    virtual_over_reactive_reason: str | None = None
    virtual_over_reactive_bound: str | None = None
    ratios: dict | None = None
    ratios_intervals: dict | None = None
    ratios_by_pool: dict | None = None
    ratios_by_pool_intervals: dict | None = None
    ratios_by_pool_reasons: dict | None = None
    repeats: dict | None = None
    repetitions: list[dict] | None = None
    thresholds: dict | None = None
    limits: dict | None = None
    machine: str | None = None
    hosts: dict | None = None
    missing_modes: list[str] | None = None
    missing: list[str] | None = None
    problems: dict | None = None
    test_fault: Any = None
    # The delay-service's configured distribution and failures (summary/served_check.overview); each level's
    # `served_ms` says what it served.
    downstream: dict | None = None
    repetition: int | None = None  # a repetition's own summary: which one
    absent: frozenset[str] = field(default=frozenset(), repr=False, compare=False)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> RunSummary:
        modes = values.get("modes") or {}
        typed = {label: m if isinstance(m, ModeRecord) else ModeRecord.from_mapping(m) for label, m in modes.items()}
        return super().from_mapping({**values, **({"modes": typed} if "modes" in values else {})})

    def as_json(self) -> dict[str, Any]:
        out = super().as_json()
        if "modes" in out:
            out["modes"] = {label: m.as_json() for label, m in self.modes.items()}
        return out


def json_text(summary: RunSummary) -> str:
    """summary.json's text: the one place it is spelled."""
    return json.dumps(summary.as_json(), indent=2) + "\n"
