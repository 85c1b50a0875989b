"""summary.json as typed records: a RunSummary holding a ModeRecord per mode, built by the summary (summary.write)
and read by the page (report/) by attribute. `as_json` is the one place a record becomes summary.json's content;
`from_mapping` reads that content back (`make report` of a written folder, the comparison page).

A field is None where summary.json has null or leaves it out; which fields a record leaves out (a mode whose
analysis failed has fewer, `app_evidence` only with APP, `repeats` only with REPEAT > 1) is kept, so the JSON it
writes is the JSON it was built from, key for key and in the order the fields are declared here. A ModeRecord's
groups (its `limit`, `knee`, `validity`, ...) are records of their own whose keys summary.json spells flat, where the
group stands among the mode's fields.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

from loadlab.core.params import defaults
from loadlab.core.run_params import RunParams
from loadlab.summary.judge.kinds import KindRecord
from loadlab.summary.schema import level_upgrade
from loadlab.summary.schema.brownout_record import BrownoutRecord
from loadlab.summary.schema.detail_records import (
    AppEvidenceRecord,
    CrashRecord,
    DbPoolRecord,
    DownstreamRecord,
    EvidenceGapRecord,
    HostRecord,
    ModeSpreadRecord,
    RejectionsRecord,
    RepeatsRecord,
    RepetitionRecord,
    SetAsideRecord,
    StopCapRecord,
    ThreadlocalRecord,
    ThresholdsRecord,
)
from loadlab.summary.schema.fit_records import CostsRecord, CpuCeilingRecord, PredictedRecord, PredictionRecord
from loadlab.summary.schema.level_records import KneeSiteRecord, LevelRecord, RefineRecord, fitted_by_pass
from loadlab.summary.schema.record_fields import SOME_RUNS, Fields, Inline, Interval, Key, OmitWhileNone
from loadlab.summary.schema.rung_record import RungRecord
from loadlab.summary.verdicts.fanout_record import FanoutRecord
from loadlab.summary.verdicts.prescription_record import PrescriptionRecord

SUMMARY_JSON = "summary.json"


# A mode's groups of fields, each spelled inline (record_fields.Inline): summary.json keeps its flat keys, in the order
# they are declared here, each group's a run of the mode's. Every field is given by whoever builds the group
# (verdict.mode_summary; failed_mode), so none has a default; it is None where summary.json has null or, read from a
# mapping, lacks its key (a test's, an older run's). A group a mode was built without is `unknown()`: every field None,
# none written.


@dataclass(frozen=True)
class LimitRecord(Fields):
    """The limit the mode met: which one first, in a sentence, what the machine and each role did at the knee, where
    the requests waited there (the wait profile, summary/judge/wait_knee.py), and what would lift it: its setting,
    the value to set, its cost, or the code to change (prescription_record.py). summary.json's flat
    `limit_met_first`, `evidence_at_knee`, `waits_at_knee`, `waits_at_knee_site`, `prescription` (ModeRecord.limit)."""

    met_first: Annotated[str | None, Key("limit_met_first")]
    evidence_at_knee: str | None  # None: no knee placed
    # where the requests waited at the knee, by the wait profile, or why it cannot say
    waits_at_knee: str | None
    # the record that sentence is written from, when it names a site; null otherwise (the sentence says why)
    waits_at_knee_site: KneeSiteRecord | None
    prescription: PrescriptionRecord | None


@dataclass(frozen=True)
class KneeRecord(Fields):
    """Where the knee lies: between which offered rates, how the fine passes placed it (REFINE=1), or, where no
    trusted level was unhealthy, the lower bound in words; and the levels set aside, which prove nothing either way.
    summary.json's flat `knee_interval_rps`, `refine`, `knee_bound`, `set_aside_levels` (ModeRecord.knee)."""

    interval_rps: Annotated[Interval | None, Key("knee_interval_rps")]
    refine: RefineRecord | None
    # no trusted level was unhealthy but some above the highest rate held were set aside: a lower bound, in words
    bound: Annotated[str | None, Key("knee_bound")]
    set_aside_levels: list[SetAsideRecord] | None


@dataclass(frozen=True)
class ValidityRecord(Fields):
    """Whether the mode's figures can be trusted, why not, and the notes that qualify them (analysis/validity.py):
    summary.json's flat `valid`, `invalid_reasons`, `notes` (ModeRecord.validity)."""

    valid: bool | None
    invalid_reasons: list[str] | None
    notes: list[str] | None


@dataclass(frozen=True)
class RequestCostRecord(Fields):
    """What a request costs the service, fitted on its healthy levels (summary/judge/cost_fits.py): memory per
    request in flight, context switches and bytes allocated per request, and the fits they are read from.
    summary.json's flat `memory_per_inflight_kb`, `context_switches_per_request`, `bytes_allocated_per_request`,
    `costs` (ModeRecord.request_cost)."""

    memory_per_inflight_kb: float | None
    context_switches_per_request: float | None
    bytes_allocated_per_request: float | None
    fits: Annotated[CostsRecord | None, Key("costs")]


@dataclass(frozen=True)
class JvmRecord(Fields):
    """The JVM the mode ran on: its JDK and what that JDK's java said it is, the virtual scheduler's carriers, the
    virtual threads its flight recording saw pinned, and THREADLOCAL_KB's builds (summary/judge/threadlocal.py).
    summary.json's flat `pinned_virtual_threads`, `threadlocal`, `jdk`, `java_runtime`, `carriers` (ModeRecord.jvm)."""

    pinned_virtual_threads: int | None  # None: no flight recording
    threadlocal: ThreadlocalRecord | None
    jdk: int | None
    java_runtime: str | None  # what the JDK's java said it is at the run's start, "Temurin 25.0.3+9"
    carriers: float | None


@dataclass(frozen=True)
class StopRecord(Fields):
    """Whether the load generator stopped the mode's stairs before their top, why, and the in-flight cap that stopped
    it when that was the reason (summary/reading/raw.py): summary.json's flat `stopped_early`, `stop_reason`,
    `stop_inflight_cap` (ModeRecord.stop)."""

    early: Annotated[bool | None, Key("stopped_early")]
    reason: Annotated[str | None, Key("stop_reason")]
    inflight_cap: Annotated[StopCapRecord | None, Key("stop_inflight_cap")]


@dataclass(frozen=True, kw_only=True)
class ModeRecord(Fields):
    """One mode's verdict (summary/verdicts/verdict.py builds it; docs/RESULTS.md says what each field means)."""

    sustained_rps: float | None
    collapsed: bool | None
    # the lowest limit within the run and the knee's verdict on it: summary.json's flat `predicted_rps`,
    # `predicted_by`, ..., `prediction_check`, spelled where this field stands (Inline)
    predicted: Annotated[PredictedRecord, Inline()] = field(default_factory=PredictedRecord.nulls)
    cpu_ceiling_rps: int | None
    cpu_ceiling: CpuCeilingRecord | None
    predictions: list[PredictionRecord] | None
    # the limit it met and what would lift it: the flat `limit_met_first`, ..., `prescription`
    limit: Annotated[LimitRecord, Inline()] = field(default_factory=LimitRecord.unknown)
    # LADDER: each rung climbed, its prescription applied and the mode measured again
    # (summary/verdicts/ladder_record.py)
    ladder: Annotated[list[RungRecord] | None, SOME_RUNS] = None
    # where the knee lies, by the coarse pass and the fine ones: the flat `knee_interval_rps`, ..., `set_aside_levels`
    knee: Annotated[KneeRecord, Inline()] = field(default_factory=KneeRecord.unknown)
    baseline_p50_ms: float | None
    # where the baseline came from: "level 1 (10 rps)", or the level after a first one that broke, and why (baseline.py)
    baseline_from: str | None
    p99_ms_at_sustained: float | None
    requests: int | None
    errors: int | None
    # virtual-limited only: the 503s its concurrency limit answered, load shed by design (summary/judge/shedding.py).
    rejections: RejectionsRecord | None
    # whether its figures can be trusted: the flat `valid`, `invalid_reasons`, `notes`
    validity: Annotated[ValidityRecord, Inline()] = field(default_factory=ValidityRecord.unknown)
    levels: list[LevelRecord] | None
    # what a request costs the service: the flat `memory_per_inflight_kb`, ..., `costs`
    request_cost: Annotated[RequestCostRecord, Inline()] = field(default_factory=RequestCostRecord.unknown)
    first_unhealthy_level: int | None
    p99_limit_ms: int | None
    # the JVM it ran on: the flat `pinned_virtual_threads`, `threadlocal`, `jdk`, `java_runtime`, `carriers`
    jvm: Annotated[JvmRecord, Inline()] = field(default_factory=JvmRecord.unknown)
    db_pool: DbPoolRecord | None
    # whether the load generator stopped early, and why: the flat `stopped_early`, `stop_reason`, `stop_inflight_cap`
    stop: Annotated[StopRecord, Inline()] = field(default_factory=StopRecord.unknown)
    missing: list[str] | None
    live_config: dict[str, object] | None
    error_kinds: list[str] | None
    error_kind_meanings: dict[str, str] | None
    crashed: CrashRecord | None
    levels_dropped_after_crash: list[int] | None
    evidence_gaps: list[EvidenceGapRecord] | None
    # the parts only some runs have (SOME_RUNS): left out of a mode built without them
    app_evidence: Annotated[AppEvidenceRecord | None, SOME_RUNS] = None
    # APP_REQUESTS: each kind of the mix on its own (summary/judge/kinds.py), which crossed its own limit first in words
    kinds: Annotated[list[KindRecord] | None, SOME_RUNS] = None
    kind_first: Annotated[str | None, OmitWhileNone("kinds")] = None
    brownout: Annotated[BrownoutRecord | None, SOME_RUNS] = None  # PROFILE=brownout (brownout_figures.py)
    fanout: Annotated[FanoutRecord | None, SOME_RUNS] = None  # SCENARIO=fanout (summary/verdicts/fanout_record.py)
    repetition: Annotated[int | None, SOME_RUNS] = None  # REPEAT > 1: the median repetition shown
    folder: Annotated[str | None, SOME_RUNS] = None  # REPEAT > 1: rep-<k>/<label>

    @property
    def shed_load(self) -> bool:
        """virtual-limited: its knee is its own 503s, load shed by design, not a collapse
        (summary/judge/shedding.py)."""
        return self.rejections is not None and self.rejections.shed_load

    @property
    def fitted_levels(self) -> list[LevelRecord]:
        """The levels a fit over healthy levels stands on, coarse and fine (level_records.fitted_by_pass)."""
        refine = self.knee.refine
        passes = [(p.name or "", p.levels or []) for p in refine.used_passes] if refine else []
        return [lv for levels in fitted_by_pass(self.levels or [], passes).values() for lv in levels]

    @property
    def fine_levels(self) -> list[LevelRecord]:
        """Every fine pass's levels (REFINE=1), pass after pass."""
        refine = self.knee.refine
        return [lv for p in (refine.passes or [] if refine else []) for lv in p.levels or []]

    @property
    def all_levels(self) -> list[LevelRecord]:
        """Every level it measured: the coarse pass's, then each fine pass's."""
        return [*(self.levels or []), *self.fine_levels]


@dataclass(frozen=True, kw_only=True)
class RunSummary(Fields):
    """A comparison's summary: the run folder's, or one repetition's (`rep-<k>/`)."""

    run_id: str | None
    target: str | None
    scenario: str | None
    # every level number in it counts from this (level_upgrade.py); absent: an older summary, read as from 1
    levels_counted_from: int | None
    params: RunParams = field(default_factory=defaults)
    modes: dict[str, ModeRecord] = field(default_factory=dict)
    # the parts only some runs have (SOME_RUNS), left out of a summary built without them; the ratios are written
    # as ratio.ratio_fields gives them (`with_fields`), which of them a run has its modes' (a brownout has no interval)
    virtual_over_platform: Annotated[float | None, SOME_RUNS] = None
    virtual_over_platform_interval: Annotated[Interval | None, SOME_RUNS] = None
    virtual_over_platform_reason: Annotated[str | None, SOME_RUNS] = None
    virtual_over_platform_basis: Annotated[str | None, SOME_RUNS] = None
    virtual_over_platform_bound: Annotated[str | None, SOME_RUNS] = None
    virtual_over_reactive: Annotated[float | None, SOME_RUNS] = None
    virtual_over_reactive_interval: Annotated[Interval | None, SOME_RUNS] = None
    virtual_over_reactive_reason: Annotated[str | None, SOME_RUNS] = None
    virtual_over_reactive_bound: Annotated[str | None, SOME_RUNS] = None
    ratios: Annotated[dict[str, float | None] | None, SOME_RUNS] = None  # JDK → its ratio
    ratios_intervals: Annotated[dict[str, Interval | None] | None, SOME_RUNS] = None
    ratios_by_pool: Annotated[dict[str, float | None] | None, SOME_RUNS] = None  # platform column → virtual over it
    ratios_by_pool_intervals: Annotated[dict[str, Interval | None] | None, SOME_RUNS] = None
    ratios_by_pool_reasons: Annotated[dict[str, str] | None, SOME_RUNS] = None
    repeats: Annotated[RepeatsRecord | None, SOME_RUNS] = None
    repetitions: Annotated[list[RepetitionRecord] | None, SOME_RUNS] = None
    thresholds: ThresholdsRecord | None
    limits: dict[str, object] | None  # the request chain's, in ms (core/limits.py)
    machine: str | None
    hosts: dict[str, HostRecord] | None
    missing_modes: list[str] | None
    missing: list[str] | None
    problems: dict[str, list[str]] | None  # mode → what bench saw go wrong
    # LOADLAB_FAULT_CPU_QUOTA of a test that starved the run on purpose
    test_fault: Annotated[str | None, SOME_RUNS] = None
    # The delay-service's configured distribution and failures (summary/judge/served_check.overview); each level's
    # `served_ms` says what it served.
    downstream: DownstreamRecord | None
    repetition: Annotated[int | None, SOME_RUNS] = None  # a repetition's own summary: which one

    def spread_of(self, label: str) -> ModeSpreadRecord | None:
        """REPEAT > 1: this mode's sustained rate across the repetitions; None otherwise."""
        return (self.repeats.modes or {}).get(label) if self.repeats else None


def json_text(summary: RunSummary) -> str:
    """summary.json's text: the one place it is spelled."""
    return json.dumps(summary.as_json(), indent=2) + "\n"


class NoModes(ValueError):
    """A summary.json that holds no modes (a run that wrote none, or a file of something else)."""


def read(folder: str | Path) -> RunSummary:
    """A run folder's summary.json as its RunSummary: the one reader of the file (OSError when it is missing,
    ValueError when it is not summary.json's JSON)."""
    values = json.loads((Path(folder) / SUMMARY_JSON).read_text(encoding="utf-8"))
    if not isinstance(values, dict) or not isinstance(values.get("modes"), dict):
        raise NoModes(f"{SUMMARY_JSON} has no modes")
    return RunSummary.from_mapping(level_upgrade.upgrade(values))
