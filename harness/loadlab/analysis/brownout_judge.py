"""PROFILE=brownout judged on a mode's seconds: goodput during the brownout, the share of errors, time to recover, the
models' predictions with the interval their inputs allow, and whether the delay-service switched on time (its own
served-delay record against the schedule). Pure functions of per-second rows; summary/verdicts/brownout_figures.py reads
the files.

Seconds are relative to the start of the measured phase; the brownout is [start_s, end_s).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from hdrh.histogram import HdrHistogram

from loadlab.analysis import hlog, served
from loadlab.core.brownout_profile import Model, Schedule
from loadlab.core.downstream import CONSTANT, Distribution

# Recovery is judged on stretches to the run's end at least this long (and a level's length): shorter ones hold too few
# answers for a p99 (measured: a 3 s stretch of 1,000 answers read one second's four slow answers as a relapse).
MIN_STABLE_S = 5
# The share of brownout answers that may come later than its delay's allowance (analysis/served.py's) before the
# stand-in is called late.
SWITCH_TOLERANCE = 0.01


@dataclass(frozen=True)
class Second:
    second: int
    sent: int
    ok: int
    ko: int
    p99_ms: float | None
    inflight: int | None = None
    histogram: HdrHistogram | None = field(default=None, compare=False, repr=False)  # the second's OK answers


def goodput_rps(seconds: Sequence[Second], start_s: int, end_s: int, settle_s: int) -> float | None:
    """OK answers a second during the brownout, once its first answers came back (settle_s: the brownout's delay,
    before which the answers are the requests sent before it); the whole window when it is shorter than that."""
    window = [s for s in seconds if start_s + settle_s <= s.second < end_s]
    window = window or [s for s in seconds if start_s <= s.second < end_s]
    return sum(s.ok for s in window) / len(window) if window else None


def error_share(seconds: Sequence[Second], start_s: int, stop_s: int) -> float | None:
    """The share of the answers completed from the brownout's start to the schedule's end that failed or timed out."""
    done = [s for s in seconds if start_s <= s.second < stop_s]
    total = sum(s.ok + s.ko for s in done)
    return sum(s.ko for s in done) / total if total else None


def recovery_s(
    seconds: Sequence[Second],
    end_s: int,
    stop_s: int,
    p99_limit_ms: float,
    rate: float,
    ok_ratio: float,
    min_stable_s: int = MIN_STABLE_S,
) -> int | None:
    """Seconds from the brownout's end to the first second from which the run stays healthy to the schedule's end:
    every stretch from a later second to the end (at least min_stable_s long) has its p99 within the health limit
    and OK answers meeting the offered rate (the health rule's OK ratio), judged on its merged histogram as a level is
    (a second's own p99 over a few dozen answers is its slowest one: one late answer is not a relapse). None when no
    such second leaves min_stable_s seconds of evidence."""
    after = sorted((s for s in seconds if end_s <= s.second < stop_s), key=lambda s: s.second)
    if stop_s - end_s < min_stable_s:
        return None
    tail, ok, last_bad = hlog.new_histogram(), 0, None
    for s in reversed(after):
        if s.histogram is not None:
            tail = hlog.merge([s.histogram], into=tail)
        ok += s.ok
        if stop_s - s.second < min_stable_s:
            continue
        p99 = tail.get_value_at_percentile(99.0) if tail.get_total_count() else None
        if p99 is None or p99 > p99_limit_ms or ok < ok_ratio * rate * (stop_s - s.second):
            last_bad = s.second  # the latest stretch that is not healthy: recovery comes after it
            break
    first = end_s if last_bad is None else last_bad + 1
    return None if stop_s - first < min_stable_s else first - end_s


def stretch(seconds: Sequence[Second], first: int, stop: int) -> tuple[float | None, float]:
    """A stretch of seconds as one level: the p99 of its merged OK answers (None without any), its OK answers a
    second."""
    inside = [s for s in seconds if first <= s.second < stop]
    merged = hlog.merge([s.histogram for s in inside if s.histogram is not None])
    p99 = merged.get_value_at_percentile(99.0) if merged.get_total_count() else None
    return p99, sum(s.ok for s in inside) / max(1, stop - first)


def peak_inflight(seconds: Sequence[Second]) -> int | None:
    counts = [s.inflight for s in seconds if s.inflight is not None]
    return max(counts) if counts else None


@dataclass(frozen=True)
class Predicted:
    """One prediction: the value from the inputs as configured, and the interval the measured hold time allows."""

    value: float | None
    low: float | None
    high: float | None
    formula: str


def predictions(configured: Model, measured_overhead_s: float) -> dict[str, Predicted]:
    """The models (core/brownout.Model) at the configured holds and at the holds plus the overhead the service added
    to a request before the brownout (its p50 over the configured delay): the interval between them."""
    slow = Model(
        configured.rate,
        configured.normal_s + max(0.0, measured_overhead_s),
        configured.brownout_s + max(0.0, measured_overhead_s),
        configured.seconds,
        configured.pool,
        configured.sheds,
    )
    pool = configured.pool
    hold = f"{configured.brownout_s * 1000:.0f} ms"
    queued = configured.backlog() > 0
    holder = f"the limit's {pool} permits" if configured.sheds else f"the pool's {pool} threads"
    formulas = {
        "inflight_peak": (
            f"{holder} + the backlog ({configured.rate:g} - {pool} / {hold}) x {configured.seconds:g} s"
            if queued
            else f"min({holder}, Little's law: {configured.rate:g} rps x {hold}): the rest is rejected"
            if configured.sheds
            else f"Little's law: {configured.rate:g} rps x {hold}"
        ),
        "goodput_rps": (
            f"the offered rate ({configured.rate:g} rps): no pool holds it back"
            if pool is None
            else f"min(rate, {holder} / {hold})"
        ),
        "recovery_s": (
            f"{hold} + the backlog over the pool's spare rate ({pool} / {configured.normal_s * 1000:.0f} ms - "
            f"{configured.rate:g} rps)"
            if queued
            else f"the last answers at {hold} come back"
        ),
    }
    methods = {"inflight_peak": Model.peak_inflight, "goodput_rps": Model.goodput_rps, "recovery_s": Model.drain_s}
    return {name: _predicted(methods[name](configured), methods[name](slow), text) for name, text in formulas.items()}


def _predicted(configured: float | None, slow: float | None, formula: str) -> Predicted:
    """The figure at the configured holds, with the interval to the figure at the measured ones (none when either
    has no figure: a pool that cannot drain)."""
    if configured is None or slow is None:
        return Predicted(configured, None, None, formula)
    return Predicted(configured, min(configured, slow), max(configured, slow), formula)


@dataclass(frozen=True)
class SwitchCheck:
    """What the delay-service's own record says of the schedule: the seconds its brownout answers came in, and the
    problem when it did not switch on or off on time, or served the brownout late (None when it kept to it)."""

    slow_from_s: int | None
    slow_to_s: int | None
    problem: str | None


def switch_check(tagged: dict[int, list[str]], t0: int, plan: Schedule) -> SwitchCheck:
    """tagged: the served log's `brownout` answers by epoch second (the answers it delayed, in the second each was
    answered in); t0: the measured phase's first epoch second. Only the mode's own seconds count (the log is the
    run's: every mode's brownout is in it).

    A request arriving as the brownout begins is answered BROWNOUT_MS later, one arriving as it ends as much later
    than that: the tagged answers must come in [start + delay, end + delay), give or take a second's edge."""
    delay_s = plan.ms / 1000
    mine = {s - t0: p for s, p in tagged.items() if plan.start_s - 1 <= s - t0 < plan.total_s + math.ceil(delay_s)}
    if not mine:
        return SwitchCheck(None, None, "the delay-service served no answer at the brownout's delay: it never switched")
    first, last = min(mine), max(mine) + 1
    problems = []
    expected_first, expected_last = plan.start_s + math.floor(delay_s), plan.end_s + math.ceil(delay_s)
    if first > expected_first + 1:
        problems.append(f"its first brownout answer came in second {first}, not {expected_first}: it switched on late")
    if last > expected_last + 1:
        problems.append(f"its brownout answers went on to second {last}, not {expected_last}: it switched back late")
    merged = served.merged_answers(sorted(mine), mine)
    allowance = served.allowed_ms(Distribution(CONSTANT, plan.ms))  # the normal check's allowance, at the brownout
    late = hlog.count_above(merged, allowance) if merged is not None else 0
    if merged is not None and late > SWITCH_TOLERANCE * merged.get_total_count():
        problems.append(
            f"{late} of {merged.get_total_count()} brownout answers took longer than {allowance:.0f} ms: the stand-in "
            "served the brownout late"
        )
    return SwitchCheck(first, last, "; ".join(problems) or None)


def served_seconds_of_brownout(t0: int, start_s: int, end_s: int, brownout_ms: float) -> range:
    """The epoch seconds whose answers the brownout shaped (judged by switch_check, not by the normal served check)."""
    return range(t0 + start_s, t0 + end_s + math.ceil(brownout_ms / 1000) + 1)
