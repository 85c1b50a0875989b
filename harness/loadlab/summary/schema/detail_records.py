"""The smaller parts of a mode's and a run's summary.json as typed records: a crash, a level set aside, a gap in the
evidence, the database pool, the ThreadLocal's builds, an APP's own evidence, the repetitions' spread, the
delay-service's policy, the hosts. Each is read by attribute (record_fields.Fields)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from loadlab.core.thresholds import Thresholds
from loadlab.summary.schema.record_fields import SOME_RUNS, Fields, Interval, Key

PassName = Annotated[str | None, Key("pass")]  # summary.json's `pass`: no Python name


@dataclass(frozen=True, kw_only=True)
class CrashRecord(Fields):
    """`crashed`: where a role died (summary/judge/crash.record)."""

    role: str | None
    host: str | None
    second: int | None
    exit: int | None
    signal: str | None
    cause: str | None
    pass_name: PassName
    level: int | None
    level_rps: float | None
    # a death of memory (SERVICE_MEMORY_MB): the most requests in flight before it (`service`, `injectors`)
    peak_inflight: dict[str, int | None] | None
    out_of_memory: bool | None
    memory_limit_mb: int | None
    # the GC-bound levels right before a death of memory, counted with it (summary/judge/gc_crash.GcBound.as_json)
    gc_bound: list[dict[str, object]] | None


@dataclass(frozen=True, kw_only=True)
class SetAsideRecord(Fields):
    """One entry of `set_aside_levels`: a level whose instrument was saturated (its number counted from 1)."""

    pass_name: PassName
    level: int | None
    target_rps: float | None
    reason: str | None


@dataclass(frozen=True, kw_only=True)
class EvidenceGapRecord(Fields):
    """One entry of `evidence_gaps`: seconds without a sampler's rows (summary/judge/evidence.Gap)."""

    role: str | None
    pass_name: PassName
    first_second: int | None
    last_second: int | None
    seconds: int | None
    cause: str | None
    detail: str | None


@dataclass(frozen=True, kw_only=True)
class StopCapRecord(Fields):
    """`stop_inflight_cap`: the simulation's in-flight cap stopped the load."""

    inflight: int | None
    max_inflight: int | None


@dataclass(frozen=True, kw_only=True)
class RejectionsRecord(Fields):
    """`rejections` (virtual-limited only): the 503s its concurrency limit answered, load shed by design
    (summary/judge/shedding.py)."""

    limit: int | None  # VIRTUAL_LIMIT
    requests: int | None  # the 503s over the counted levels
    share: float | None  # of all their requests
    from_rps: float | None  # the first level that shed any
    shed_load: bool = False  # the knee is the limit shedding, not a collapse


@dataclass(frozen=True, kw_only=True)
class DbPoolRecord(Fields):
    """`db_pool`: the database pool's size, its most active and pending connections (SCENARIO=db)."""

    size: float | None
    active_max: float | None
    pending_max: float | None
    first_level_with_pending: int | None


@dataclass(frozen=True, kw_only=True)
class ThreadlocalRecord(Fields):
    """`threadlocal`: THREADLOCAL_KB's builds per request (summary/judge/threadlocal.py)."""

    kb: float | None
    builds: int | None
    requests: int | None
    builds_per_request: float | None
    bytes_built_per_request: int | None
    builds_since_start: float | None
    requests_since_start: float | None


@dataclass(frozen=True, kw_only=True)
class AppEvidenceRecord(Fields):
    """`app_evidence`: what an APP's own JVM showed over the whole mode (summary/judge/appcheck.evidence; None: not
    measured), and what a knee below every prediction points to (appcheck.app_evidence)."""

    virtual_threads_started: int | None
    pinned_events: int | None
    monitor_waits: int | None
    gc_count: int | None
    gc_pause_total_ms: float | None
    gc_pause_max_ms: float | None
    request_pool_threads_max: float | None  # Tomcat's platform request threads seen (request_pool.csv)
    tomcat_threads_max: float | None  # the app's own gauge tomcat.threads.config.max (platform mode)
    tomcat_busy_max: float | None
    hikari_pending_max: float | None
    hikari_max: float | None
    points_to: list[str] | None
    unexplained_limit: str | None


@dataclass(frozen=True, kw_only=True)
class RepetitionRow(Fields):
    """One repetition of a mode in `repeats.modes.<label>.repetitions`."""

    repetition: int | None
    sustained_rps: float | None
    collapsed: bool | None
    knee_interval_rps: Interval | None
    valid: bool | None
    invalid_reasons: list[str] | None
    host_cpu_pct_at_sustained: float | None
    host_cpu_pct_at_knee: float | None


@dataclass(frozen=True, kw_only=True)
class ModeSpreadRecord(Fields):
    """A mode's sustained rate across repetitions (summary/verdicts/repeats.py)."""

    median: float | None
    min: float | None
    max: float | None
    spread_ratio: float | None
    noise: bool | None
    repetitions_used: int | None
    repetitions: list[RepetitionRow] | None
    median_repetition: int | None
    evidence: str | None


@dataclass(frozen=True, kw_only=True)
class RatioValueRecord(Fields):
    """One repetition's virtual / platform ratio with its interval."""

    repetition: int | None
    virtual_over_platform: float | None
    virtual_over_platform_interval: Interval | None


@dataclass(frozen=True, kw_only=True)
class RatioSpreadRecord(Fields):
    """The ratio across repetitions: the median and range of each repetition's quotable figure (a bound's is the end
    its brackets carry, ratio_interval.quotable); `bounds`: repetition → `lower`/`upper` where its ratio is a bound."""

    median: float | None
    min: float | None
    max: float | None
    bounds: dict[str, str] | None
    values: list[RatioValueRecord] | None


@dataclass(frozen=True, kw_only=True)
class RepeatsRecord(Fields):
    """`repeats` (REPEAT > 1): each mode's spread across repetitions and the ratio's."""

    n: int | None
    noise_threshold: float | None
    modes: dict[str, ModeSpreadRecord] | None
    ratio: RatioSpreadRecord | None


@dataclass(frozen=True, kw_only=True)
class RepetitionRecord(Fields):
    """One entry of `repetitions` (REPEAT > 1): a repetition's folder and verdict."""

    repetition: int | None
    folder: str | None
    valid: bool | None
    virtual_over_platform: float | None
    virtual_over_platform_interval: Interval | None
    sustained_rps: dict[str, float | None] | None  # mode label → its sustained rate


@dataclass(frozen=True, kw_only=True)
class DownstreamRecord(Fields):
    """`downstream`: the delay-service's configured distribution and failures (summary/judge/served_check.overview)."""

    distribution: str | None
    configured_ms: dict[str, float] | None  # `mean`, `p50`, … → ms
    errors_pct: float | None
    resets_pct: float | None
    served_log: str | None


@dataclass(frozen=True, kw_only=True)
class ThresholdsRecord(Fields):
    """`thresholds`: the health rule's thresholds the run judged with (core/thresholds.py)."""

    ok_ratio: float | None
    max_error_ratio: float | None
    p99_factor: float | None
    p99_slack_ms: float | None
    p50_slack_ms: float | None
    settle_s: Annotated[float | None, SOME_RUNS] = None  # absent: every second of a level was judged (a run before it)

    @classmethod
    def of(cls, thresholds: Thresholds) -> ThresholdsRecord:
        """The thresholds as params.json spells them: whole numbers as ints (100, not 100.0)."""
        plain = thresholds.as_dict()
        return cls(
            ok_ratio=plain["ok_ratio"],
            max_error_ratio=plain["max_error_ratio"],
            p99_factor=plain["p99_factor"],
            p99_slack_ms=plain["p99_slack_ms"],
            p50_slack_ms=plain["p50_slack_ms"],
            settle_s=plain["settle_s"] or None,
        )


@dataclass(frozen=True, kw_only=True)
class HostRecord(Fields):
    """One role's host in `hosts`."""

    host: str | None
    address: str | None
    description: str | None
