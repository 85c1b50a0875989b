"""summary.json's `fanout` of a mode (SCENARIO=fanout): the shape that ran, the tail of the slowest of N calls
predicted against the measured one at each healthy level (analysis/fanout_tail.py), and the calls left behind —
answered after their caller stopped waiting (orphaned: work done for nobody) or cancelled by it — as the delay-service
counted them (analysis/served.py's tags), level by level.

What the verdict says when a piece is missing: no live `fanout_shape` (a service that did not report it) leaves the
shape unsaid, never guessed from the mode; no served log leaves the calls left behind unknown (None), never zero.
"""

from __future__ import annotations

from dataclasses import dataclass

from loadlab.analysis import fanout_tail
from loadlab.analysis.fanout_model import FanoutShape
from loadlab.analysis.levels import Level, level_number
from loadlab.core import fanout, metrics
from loadlab.core.asked import Asked
from loadlab.core.downstream import Distribution
from loadlab.summary.reading.labels import base_mode, mode_threads
from loadlab.summary.reading.values import as_float
from loadlab.summary.schema.record_fields import Fields, Interval


@dataclass(frozen=True, kw_only=True)
class TailRecord(Fields):
    """One percentile of one level: measured with its 95% interval (None: the level's count cannot place it), the
    predicted interval, and whether they meet (None: not judged)."""

    percentile: float | None
    measured_ms: float | None
    measured_interval_ms: Interval | None
    predicted_interval_ms: Interval | None
    agrees: bool | None
    cut_by_deadline: bool | None  # the requests there answered at a partial deadline: not judged


@dataclass(frozen=True, kw_only=True)
class FanoutLevelRecord(Fields):
    """One level: its rate, answers, p50 (the calibration), the service's own time it gives, the checked tail, and the
    calls the stand-in saw left behind in its seconds (None: no served log)."""

    level: int | None  # from 1, as the page counts
    target_rps: float | None
    answered: int | None
    p50_ms: float | None
    own_ms_interval: Interval | None
    tail: list[TailRecord] | None
    orphaned_calls: int | None
    cancelled_calls: int | None


@dataclass(frozen=True, kw_only=True)
class FanoutRecord(Fields):
    """`fanout`: what one request did and what the run saw of its shape."""

    calls: int | None
    shape: str | None  # as the service reported it (core/fanout.SHAPES), None when it did not
    shape_words: str | None
    executor_threads: float | None  # platform's executor (FANOUT_POOL), as reported
    deadline_ms: int | None
    on_timeout: str | None
    call_distribution: str | None
    request_wait: str | None  # the slowest of the calls, in words with its figures
    levels: list[FanoutLevelRecord] | None
    tail_checked: int | None  # percentiles judged over the healthy levels
    tail_agreed: int | None
    orphaned_calls: int | None  # over the measured levels; None: not counted
    cancelled_calls: int | None


def shape(label: str, live: dict[str, object], asked: Asked, call: Distribution) -> FanoutShape | None:
    """The models' view (analysis/fanout_model.py); None outside SCENARIO=fanout. Platform's executor as the service
    reported it, else as the harness asked (FANOUT_POOL, or Tomcat's threads x FANOUT)."""
    if not fanout.is_fanout(asked):
        return None
    executor = None
    if base_mode(label) == "platform":
        reported = as_float(live.get(metrics.FANOUT_POOL))
        threads = mode_threads(label, asked.pool)
        executor = reported or (float(fanout.pool(asked, int(threads))) if threads else None)
    return FanoutShape(fanout.calls(asked), call, executor)


def record(
    label: str,
    live: dict[str, object],
    asked: Asked,
    call: Distribution,
    levels: list[Level],
    healthy: list[Level],
) -> FanoutRecord | None:
    """levels: the coarse pass's measured levels (their calls left behind); healthy: the levels the knee stands on,
    where the tail is checked."""
    if not fanout.is_fanout(asked):
        return None
    n = fanout.calls(asked)
    wait = fanout.SlowestOf(call, n)
    deadline = asked.fanout_timeout_ms
    on_timeout = asked.fanout_on_timeout
    # A `fail` deadline turns the slow requests into errors: the answered spectrum is then cut, not predicted.
    predict = deadline is None or on_timeout == fanout.PARTIAL
    ran = live.get(metrics.FANOUT_SHAPE)
    # the knee's healthy levels may be copies of the coarse ones (read with their lag): matched by rate
    held = {lv.target_rps for lv in healthy}
    rows = [
        _level(
            lv, wait if predict and lv.target_rps in held else None, deadline if on_timeout == fanout.PARTIAL else None
        )
        for lv in levels
    ]
    judged = [t for row in rows for t in row.tail or () if t.agrees is not None]
    counted = [row for row in rows if row.orphaned_calls is not None]
    executor = shape(label, live, asked, call)
    return FanoutRecord(
        calls=n,
        shape=str(ran) if ran else None,
        shape_words=fanout.SHAPES.get(str(ran)) if ran else None,
        executor_threads=executor.executor_threads if executor else None,
        deadline_ms=deadline,
        on_timeout=on_timeout if deadline is not None else None,
        call_distribution=call.describe(),
        request_wait=f"{wait.describe()}: median {wait.p50_ms():,.0f} ms, p99 {wait.p99_high_ms():,.0f} ms",
        levels=rows,
        tail_checked=len(judged),
        tail_agreed=sum(1 for t in judged if t.agrees),
        orphaned_calls=sum(r.orphaned_calls or 0 for r in counted) if counted else None,
        cancelled_calls=sum(r.cancelled_calls or 0 for r in counted) if counted else None,
    )


def _level(level: Level, wait: fanout.SlowestOf | None, cap_ms: float | None) -> FanoutLevelRecord:
    tail = fanout_tail.check(level.histogram, wait, cap_ms) if wait is not None and level.histogram else None
    return FanoutLevelRecord(
        level=level_number(level.position),
        target_rps=level.target_rps,
        answered=level.ok,
        p50_ms=tail.median.ms if tail else None,
        own_ms_interval=[round(tail.own_low_ms, 1), round(tail.own_high_ms, 1)] if tail else None,
        tail=[_tail(c) for c in tail.checks] if tail else None,
        orphaned_calls=level.orphaned_calls,
        cancelled_calls=level.cancelled_calls,
    )


def _tail(c: fanout_tail.Checked) -> TailRecord:
    m = c.measured
    return TailRecord(
        percentile=c.percentile,
        measured_ms=None if m is None else m.ms,
        measured_interval_ms=None if m is None else [m.low_ms, m.high_ms],
        predicted_interval_ms=[round(c.predicted_low_ms, 1), round(c.predicted_high_ms, 1)],
        agrees=c.agrees,
        cut_by_deadline=c.cut or None,
    )
