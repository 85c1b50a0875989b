"""The smaller parts of a mode's and a run's summary.json as typed records: a crash, a level set aside, a gap in the
evidence, the database pool, the ThreadLocal's builds, an APP's own evidence, the repetitions' spread, the
delay-service's policy, the hosts. Each is read by attribute (record_fields.Fields)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from loadlab.core.thresholds import Thresholds
from loadlab.summary.schema.record_fields import SOME_RUNS, Fields, Interval, Key

PassName = Annotated[str | None, Key("pass")]  # summary.json's `pass`: no Python name


@dataclass(frozen=True)
class CrashRecord(Fields):
    """`crashed`: where a role died (summary/judge/crash.record)."""

    role: str | None = None
    host: str | None = None
    second: int | None = None
    exit: int | None = None
    signal: str | None = None
    cause: str | None = None
    pass_name: PassName = None
    level: int | None = None
    level_rps: float | None = None
    # a death of memory (SERVICE_MEMORY_MB): the most requests in flight before it (`service`, `injectors`)
    peak_inflight: dict[str, int | None] | None = None
    out_of_memory: bool | None = None
    memory_limit_mb: int | None = None
    # the GC-bound levels right before a death of memory, counted with it (summary/judge/gc_crash.GcBound.as_json)
    gc_bound: list[dict[str, object]] | None = None


@dataclass(frozen=True)
class SetAsideRecord(Fields):
    """One entry of `set_aside_levels`: a level whose instrument was saturated (its number counted from 1)."""

    pass_name: PassName = None
    level: int | None = None
    target_rps: float | None = None
    reason: str | None = None


@dataclass(frozen=True)
class EvidenceGapRecord(Fields):
    """One entry of `evidence_gaps`: seconds without a sampler's rows (summary/judge/evidence.Gap)."""

    role: str | None = None
    pass_name: PassName = None
    first_second: int | None = None
    last_second: int | None = None
    seconds: int | None = None
    cause: str | None = None
    detail: str | None = None


@dataclass(frozen=True)
class StopCapRecord(Fields):
    """`stop_inflight_cap`: the simulation's in-flight cap stopped the load."""

    inflight: int | None = None
    max_inflight: int | None = None


@dataclass(frozen=True)
class RejectionsRecord(Fields):
    """`rejections` (virtual-limited only): the 503s its concurrency limit answered, load shed by design
    (summary/judge/shedding.py)."""

    limit: int | None = None  # VIRTUAL_LIMIT
    requests: int | None = None  # the 503s over the counted levels
    share: float | None = None  # of all their requests
    from_rps: float | None = None  # the first level that shed any
    shed_load: bool = False  # the knee is the limit shedding, not a collapse


@dataclass(frozen=True)
class DbPoolRecord(Fields):
    """`db_pool`: the database pool's size, its most active and pending connections (SCENARIO=db)."""

    size: float | None = None
    active_max: float | None = None
    pending_max: float | None = None
    first_level_with_pending: int | None = None


@dataclass(frozen=True)
class ThreadlocalRecord(Fields):
    """`threadlocal`: THREADLOCAL_KB's builds per request (summary/judge/threadlocal.py)."""

    kb: float | None = None
    builds: int | None = None
    requests: int | None = None
    builds_per_request: float | None = None
    bytes_built_per_request: int | None = None
    builds_since_start: float | None = None
    requests_since_start: float | None = None


@dataclass(frozen=True)
class AppEvidenceRecord(Fields):
    """`app_evidence`: what an APP's own JVM showed over the whole mode (summary/judge/appcheck.evidence; None: not
    measured), and what a knee below every prediction points to (appcheck.app_evidence)."""

    virtual_threads_started: int | None = None
    pinned_events: int | None = None
    monitor_waits: int | None = None
    gc_count: int | None = None
    gc_pause_total_ms: float | None = None
    gc_pause_max_ms: float | None = None
    request_pool_threads_max: float | None = None  # Tomcat's platform request threads seen (request_pool.csv)
    tomcat_threads_max: float | None = None  # the app's own gauge tomcat.threads.config.max (platform mode)
    tomcat_busy_max: float | None = None
    hikari_pending_max: float | None = None
    hikari_max: float | None = None
    points_to: list[str] | None = None
    unexplained_limit: str | None = None


@dataclass(frozen=True)
class RepetitionRow(Fields):
    """One repetition of a mode in `repeats.modes.<label>.repetitions`."""

    repetition: int | None = None
    sustained_rps: float | None = None
    collapsed: bool | None = None
    knee_interval_rps: Interval | None = None
    valid: bool | None = None
    invalid_reasons: list[str] | None = None
    host_cpu_pct_at_sustained: float | None = None
    host_cpu_pct_at_knee: float | None = None


@dataclass(frozen=True)
class ModeSpreadRecord(Fields):
    """A mode's sustained rate across repetitions (summary/verdicts/repeats.py)."""

    median: float | None = None
    min: float | None = None
    max: float | None = None
    spread_ratio: float | None = None
    noise: bool | None = None
    repetitions_used: int | None = None
    repetitions: list[RepetitionRow] | None = None
    median_repetition: int | None = None
    evidence: str | None = None


@dataclass(frozen=True)
class RatioValueRecord(Fields):
    """One repetition's virtual / platform ratio with its interval."""

    repetition: int | None = None
    virtual_over_platform: float | None = None
    virtual_over_platform_interval: Interval | None = None


@dataclass(frozen=True)
class RatioSpreadRecord(Fields):
    """The ratio across repetitions: the median and range of each repetition's quotable figure (a bound's is the end
    its brackets carry, ratio_interval.quotable); `bounds`: repetition → `lower`/`upper` where its ratio is a bound."""

    median: float | None = None
    min: float | None = None
    max: float | None = None
    bounds: dict[str, str] | None = None
    values: list[RatioValueRecord] | None = None


@dataclass(frozen=True)
class RepeatsRecord(Fields):
    """`repeats` (REPEAT > 1): each mode's spread across repetitions and the ratio's."""

    n: int | None = None
    noise_threshold: float | None = None
    modes: dict[str, ModeSpreadRecord] | None = None
    ratio: RatioSpreadRecord | None = None


@dataclass(frozen=True)
class RepetitionRecord(Fields):
    """One entry of `repetitions` (REPEAT > 1): a repetition's folder and verdict."""

    repetition: int | None = None
    folder: str | None = None
    valid: bool | None = None
    virtual_over_platform: float | None = None
    virtual_over_platform_interval: Interval | None = None
    sustained_rps: dict[str, float | None] | None = None  # mode label → its sustained rate


@dataclass(frozen=True)
class DownstreamRecord(Fields):
    """`downstream`: the delay-service's configured distribution and failures (summary/judge/served_check.overview)."""

    distribution: str | None = None
    configured_ms: dict[str, float] | None = None  # `mean`, `p50`, … → ms
    errors_pct: float | None = None
    resets_pct: float | None = None
    served_log: str | None = None


@dataclass(frozen=True)
class ThresholdsRecord(Fields):
    """`thresholds`: the health rule's thresholds the run judged with (core/thresholds.py)."""

    ok_ratio: float | None = None
    max_error_ratio: float | None = None
    p99_factor: float | None = None
    p99_slack_ms: float | None = None
    p50_slack_ms: float | None = None
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


@dataclass(frozen=True)
class HostRecord(Fields):
    """One role's host in `hosts`."""

    host: str | None = None
    address: str | None = None
    description: str | None = None
