"""A measured level as summary.json records it, and the fine passes that measured more of them (`refine`): typed
records the page and `make plan` read by attribute. The rule of which levels a fit stands on is here, once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated

from loadlab.analysis.levels import Evidence
from loadlab.summary.schema.record_fields import SOME_RUNS, Fields, Interval, OmitWhileNone

COARSE = "coarse"


@dataclass(frozen=True, kw_only=True)
class LevelCostsRecord(Fields):
    """What a level cost the service, means over its seconds (summary/judge/cost_fits.level_costs): as measured for the
    fits, rounded (`rounded`) where a level holds them."""

    ok_rps: float | None
    inflight: float | None
    rss_mb: float | None
    os_threads: float | None
    thread_stacks_mb: float | None
    live_heap_mb: float | None
    allocated_mb_per_s: float | None
    gc_pause_ms_per_s: float | None
    context_switches_per_s: float | None
    context_switches_source: str | None  # process | host

    def rounded(self) -> LevelCostsRecord:
        """Its means to 0.1, as summary.json gives them: its mapping, rounded, read back."""
        return self.from_mapping({k: round(v, 1) if isinstance(v, float) else v for k, v in self.as_json().items()})


@dataclass(frozen=True, kw_only=True)
class WaitSiteRecord(Fields):
    """One site of a level's wait profile (analysis/wait_profile.Site): its category, the resource it names, the
    mean requests there (Little's law) and their share of all requests in flight."""

    category: str | None
    site: str | None
    mean_requests: float | None
    share: float | None


@dataclass(frozen=True, kw_only=True)
class WaitsRecord(Fields):
    """A level's wait profile (summary/reading/waits.as_json): the samples it stands on and its sites, most requests
    first; `too_few` says in words when they are too few to place a site."""

    samples: int | None
    request_samples: int | None
    inflight: float | None
    too_few: str | None
    sites: list[WaitSiteRecord] | None


@dataclass(frozen=True, kw_only=True)
class KneeSiteRecord(Fields):
    """`waits_at_knee_site`: the site whose waiting grew most at the knee (analysis/wait_profile.grew), the record the
    `waits_at_knee` sentence is written from (summary/judge/wait_knee.py): the site and its category, the class its
    threads were blocked on (the dump's blockedOn/parkBlocker; null when it names none), its mean requests and share of
    request time at the first unhealthy level (`at_rps`) over `dumps` thread dumps, the same at the last healthy
    level (`before_rps`, `dumps_before`), and the other request threads at the knee, largest first."""

    site: str | None
    category: str | None
    blocked_on: str | None
    at_rps: float | None
    mean_requests: float | None
    share: float | None
    dumps: int | None
    before_rps: float | None
    mean_requests_before: float | None
    dumps_before: int | None
    others: list[WaitSiteRecord] | None


@dataclass(frozen=True, kw_only=True)
class LevelRecord(Fields):
    """One level of a pass as judged (summary/judge/jsonform.level_record builds it; docs/RESULTS.md says each
    field)."""

    index: int | None
    target_rps: float | None
    offered_rps: float | None
    ok_rps: float | None
    error_ratio: float | None
    p50_ms: float | None
    p95_ms: float | None
    p99_ms: float | None
    max_ms: float | None
    ok: int | None
    percentiles_ms: dict[str, int] | None  # percentile ("99.9") → ms
    ko_p50_ms: float | None
    errors_by_kind: dict[str, int] | None  # error kind → count
    downstream_injected: int | None
    served_ms: dict[str, float] | None  # `answers` and percentile (`p99`) → ms, as the delay-service served them
    seconds: int | None
    healthy: bool | None
    unhealthy_reasons: list[str] | None
    tail_judged_by: str | None  # "p99", or "count" where the level's requests cannot resolve its p99
    set_aside: str | None
    first_second: int | None
    evidence: Evidence | None  # its means to 0.1 (jsonform.evidence_of)
    no_server_evidence: str | None
    thread_cpu_ms_per_request: float | None
    waits: WaitsRecord | None
    # a coarse level's costs (cost_fits.py): a fine level has none, and writes none of them
    rss_mb: Annotated[float | None, OmitWhileNone("costs")] = None
    os_threads: Annotated[int | None, OmitWhileNone("costs")] = None
    costs: Annotated[LevelCostsRecord | None, SOME_RUNS] = None

    def errors_of(self, kind: str) -> int:
        """Its failed requests of this kind (`errors_by_kind`)."""
        return (self.errors_by_kind or {}).get(kind, 0)

    def percentile_ms(self, p: float) -> float | None:
        """Its p-th percentile (`percentiles_ms`, keyed as hlog.SPECTRUM prints them: `99.9`)."""
        return (self.percentiles_ms or {}).get(f"{p:g}")

    @property
    def sampled(self) -> Evidence:
        """Its evidence, empty when none was recorded."""
        return self.evidence or Evidence()


@dataclass(frozen=True, kw_only=True)
class PassRecord(Fields):
    """A fine pass (summary/judge/knee_record.pass_record): its rates, the bracket before and after it, whether the knee
    used it, its levels."""

    name: str | None
    rates: list[float] | None
    interval_before_rps: Interval | None
    interval_after_rps: Interval | None
    used: bool | None
    why_not_used: str | None
    levels: list[LevelRecord] | None
    first_unhealthy_level: int | None
    requests: int | None
    errors: int | None
    stopped_early: bool | None
    stop_reason: str | None
    missing: list[str] | None


@dataclass(frozen=True, kw_only=True)
class RefineRecord(Fields):
    """REFINE=1's record of a mode: how narrow the knee's bracket got and every fine pass."""

    requested: bool | None
    resolution: float | None
    localised: bool | None
    width_ratio: float | None
    coarse_interval_rps: Interval | None
    not_reproduced: str | None
    transients: list[str] | None
    confirmed: bool | None
    passes: list[PassRecord] | None
    not_refined: str | None

    @property
    def resolution_or_default(self) -> float:
        """The resolution it aimed at; a summary from before it was recorded aimed at 5%."""
        return self.resolution if self.resolution is not None else 0.05

    @property
    def used_passes(self) -> list[PassRecord]:
        return [p for p in self.passes or [] if p.used]


def healthy_prefix(levels: Sequence[LevelRecord]) -> list[LevelRecord]:
    """The healthy levels before the first unhealthy one; a level set aside (its instrument was saturated) is
    neither counted nor the end of the prefix."""
    found = []
    for level in sorted(levels, key=lambda lv: lv.index or 0):
        if level.set_aside:
            continue
        if not level.healthy:
            break
        found.append(level)
    return found


def fitted_by_pass(
    coarse: Sequence[LevelRecord], passes: Sequence[tuple[str, Sequence[LevelRecord]]]
) -> dict[str, list[LevelRecord]]:
    """The levels a fit over healthy levels stands on, by pass (`coarse`, `refine-1`, …): the coarse levels before
    its knee, then of each used fine pass its healthy levels before its first unhealthy one. The one rule: the costs
    (cost_fits.mode_costs), ModeRecord.fitted_levels and `make plan`'s lines all read it."""
    return {COARSE: healthy_prefix(coarse), **{name: healthy_prefix(levels) for name, levels in passes}}
