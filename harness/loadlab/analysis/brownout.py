"""PROFILE=brownout judged on a mode's seconds: goodput during the brownout, the share of errors, time to recover, the
models' predictions with the interval their inputs allow, and whether the delay-service switched on time (its own
served-delay record against the schedule). Pure functions of per-second rows; summary/brownout.py reads the files.

Seconds are relative to the start of the measured phase; the brownout is [start_s, end_s).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from loadlab.analysis import hlog, served
from loadlab.core.brownout import Model

# Recovery must hold for at least this many seconds before the run ends, or the run cannot tell it from a lull.
MIN_STABLE_S = 3
# An answer served at least this share of BROWNOUT_MS is the brownout's.
SLOW_SHARE = 0.9
# The share of answers the served-delay record may contradict the schedule with before the switch is called late
# (a second's edges: the timer's and the clock's milliseconds).
SWITCH_TOLERANCE = 0.01


@dataclass(frozen=True)
class Second:
    second: int
    sent: int
    ok: int
    ko: int
    p99_ms: float | None
    inflight: int | None = None


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
    seconds: Sequence[Second], end_s: int, stop_s: int, p99_limit_ms: float, rate: float, ok_ratio: float
) -> int | None:
    """Seconds from the brownout's end to the first second from which, to the schedule's end, every second's p99 is
    within the health limit and its OK answers meet the offered rate (the health rule's OK ratio); None when no such
    second leaves MIN_STABLE_S seconds of evidence."""
    after = sorted((s for s in seconds if end_s <= s.second < stop_s), key=lambda s: s.second)
    first = None
    for s in after:
        healthy = s.p99_ms is not None and s.p99_ms <= p99_limit_ms and s.ok >= ok_ratio * rate
        if not healthy:
            first = None
        elif first is None:
            first = s.second
    if first is None or stop_s - first < MIN_STABLE_S:
        return None
    return first - end_s


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

    def as_dict(self, digits: int = 0) -> dict:
        def r(x):
            return None if x is None else round(x, digits) if digits else round(x)

        return {"value": r(self.value), "interval": [r(self.low), r(self.high)], "formula": self.formula}


def predictions(configured: Model, measured_overhead_s: float) -> dict[str, Predicted]:
    """The models (core/brownout.Model) at the configured holds and at the holds plus the overhead the service added
    to a request before the brownout (its p50 over the configured delay): the interval between them."""
    slow = Model(
        configured.rate,
        configured.normal_s + max(0.0, measured_overhead_s),
        configured.brownout_s + max(0.0, measured_overhead_s),
        configured.seconds,
        configured.pool,
    )
    pool = configured.pool
    hold = f"{configured.brownout_s * 1000:.0f} ms"
    queued = configured.backlog() > 0
    formulas = {
        "inflight_peak": (
            f"the pool's {pool} threads + the backlog ({configured.rate:g} - {pool} / {hold})"
            f" x {configured.seconds:g} s"
            if queued
            else f"Little's law: {configured.rate:g} rps x {hold}"
        ),
        "goodput_rps": (
            f"the offered rate ({configured.rate:g} rps): no pool holds it back"
            if pool is None
            else f"min(rate, the pool's ceiling {pool} / {hold})"
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
    """What the delay-service's own record says of the schedule: the seconds its answers were the brownout's, and
    the problem when it did not switch on or off on time (None when it did)."""

    slow_from_s: int | None
    slow_to_s: int | None
    problem: str | None


def switch_check(
    by_second: dict[int, list[str]], t0: int, start_s: int, end_s: int, brownout_ms: float, normal_high_ms: float
) -> SwitchCheck:
    """by_second: the served log's payloads by epoch second; t0: the measured phase's first epoch second.

    Answered in [start + normal + 1 s, end): every answer arrived during the brownout, so each must be slow.
    Answered from end + brownout + 1 s: every answer arrived after it, so none may be slow."""
    slow_ms = SLOW_SHARE * brownout_ms
    slow_seconds = [s - t0 for s, p in sorted(by_second.items()) if served.count_above(hlog.merge_payloads(p), slow_ms)]
    on = range(t0 + start_s + math.ceil(normal_high_ms / 1000) + 1, t0 + end_s)
    off_from = t0 + end_s + math.ceil(brownout_ms / 1000) + 1
    problems = []
    merged = served.merged_answers(on, by_second)
    if len(on) and merged is not None:
        fast = merged.get_total_count() - served.count_above(merged, slow_ms)
        if fast > SWITCH_TOLERANCE * merged.get_total_count():
            problems.append(
                f"{fast} of {merged.get_total_count()} answers the delay-service gave inside the brownout came faster "
                f"than {slow_ms:.0f} ms: it did not switch on as scheduled"
            )
    after = served.merged_answers([s for s in by_second if s >= off_from], by_second)
    if after is not None:
        slow = served.count_above(after, slow_ms)
        if slow > SWITCH_TOLERANCE * after.get_total_count():
            problems.append(
                f"{slow} of {after.get_total_count()} answers after the brownout still took {slow_ms:.0f} ms or more: "
                "the delay-service did not switch back as scheduled"
            )
    return SwitchCheck(
        slow_seconds[0] if slow_seconds else None,
        slow_seconds[-1] + 1 if slow_seconds else None,
        "; ".join(problems) or None,
    )


def served_seconds_of_brownout(t0: int, start_s: int, end_s: int, brownout_ms: float) -> range:
    """The epoch seconds whose answers the brownout shaped (judged by switch_check, not by the normal served check)."""
    return range(t0 + start_s, t0 + end_s + math.ceil(brownout_ms / 1000) + 1)
