"""An application's own connection pool (HikariCP, read from its Actuator gauges in actuator.csv): its size, how long
each request holds a connection, and whether the pool was the queue at the knee.

The pool limits a mode as SCENARIO=db's does (models.pool): connections / connection time per request. That time is
HikariCP's usage timer (`hikaricp.connections.usage`: each connection's borrowed-to-returned time), summed over a
level's seconds and divided by the requests the level completed, so a request that borrows twice (or not at all)
is counted as it is. The time is read at every healthy level the knee stands on (the coarse pass's and the used fine
passes'), because the first level is often JIT-cold (a real app's first level held its connections longer than the
levels after it): the formula's value is their median, the interval their range. With one level only, the interval
is that level's second-by-second range, and the prediction says it comes from one level only. Reads raw files only;
None wherever the app does not expose the gauges.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from loadlab.analysis.levels import Level
from loadlab.analysis.models import HoldTime
from loadlab.core.app import HIKARI_ACTIVE, HIKARI_MAX, HIKARI_PENDING, HIKARI_USAGE, HIKARI_USAGE_TOTAL_S
from loadlab.summary.reading.raw import RawMode
from loadlab.summary.reading.raw_rows import NO_METRICS

# The pool is the queue at a level when, in at least this share of its sampled seconds, every connection was in use
# and a request waited for one (the gauges are read once a second, so a single second can catch a passing burst).
SATURATED_SHARE = 0.5
# A level's connection time is measured between its first and last sampled totals: at least this many seconds apart.
MIN_SPAN_S = 2
SOURCE = f"{HIKARI_USAGE}, per request"
# How limit_met_first names the pool when it was the queue at the knee (report/answer.py reads the same start).
NAMED = "the app's connection pool (HikariCP)"


@dataclass(frozen=True)
class PoolAtKnee:
    """The pool at the first unhealthy level, when it was the queue there."""

    size: float
    pending_max: float
    rate: float  # the level's offered rate

    def sentence(self) -> str:
        if self.size == 1:
            busy = "its one connection was in use"
        else:
            busy = f"all {self.size:.0f} of its connections were in use"
        if self.pending_max == 1:
            waited = f"1 request waited for {'it' if self.size == 1 else 'one'}"
        else:
            waited = f"up to {self.pending_max:.0f} requests waited for {'it' if self.size == 1 else 'one'}"
        return f"{NAMED}: at {self.rate:,.0f} rps {busy} and {waited}"


def _seconds(t0: int | None, level: Level) -> list[int]:
    if t0 is None or level.first_second is None:
        return []
    return list(range(t0 + level.first_second, t0 + level.first_second + level.seconds))


def size(raw: RawMode) -> float | None:
    """The pool's size (hikaricp.connections.max), the largest reported."""
    values = [r.metric(HIKARI_MAX) for r in raw.actuator.values()]
    return max((v for v in values if v), default=None)


def _totals(raw: RawMode, t0: int | None, level: Level) -> list[tuple[int, float]]:
    """The usage timer's sampled totals over the level's seconds, (second, total in s)."""
    totals = [(s, raw.actuator.get(s, NO_METRICS).metric(HIKARI_USAGE_TOTAL_S)) for s in _seconds(t0, level)]
    return [(s, v) for s, v in totals if v is not None]


def _done_per_s(level: Level) -> float:
    return (level.ok + level.ko) / level.seconds if level.seconds else 0.0


def connection_ms_per_request(raw: RawMode, t0: int | None, level: Level) -> float | None:
    """Milliseconds of connection time per completed request over the level, from the usage timer's total."""
    totals = _totals(raw, t0, level)
    if len(totals) < 2 or totals[-1][0] - totals[0][0] < MIN_SPAN_S or totals[-1][1] <= totals[0][1]:
        return None
    (first_s, first), (last_s, last) = totals[0], totals[-1]
    requests = _done_per_s(level) * (last_s - first_s)
    return (last - first) * 1000.0 / requests if requests > 0 else None


def per_second_ms(raw: RawMode, t0: int | None, level: Level) -> list[float]:
    """The connection time per request second by second over one level (each second's growth of the total over the
    level's completions a second): the spread one level alone can give."""
    totals, done = _totals(raw, t0, level), _done_per_s(level)
    if done <= 0:
        return []
    return [
        (b - a) * 1000.0 / (done * (s_b - s_a)) for (s_a, a), (s_b, b) in zip(totals, totals[1:]) if s_b > s_a and b > a
    ]


def hold(raw: RawMode, healthy: list[tuple[Level, int | None]]) -> HoldTime | None:
    """The connection time per request read at every healthy level (each with its pass's first second): the median
    of the levels' (a JIT-cold first level does not set it), between the shortest and the longest of them; at one
    level, between its shortest and longest second."""
    measured = [(lv, t0, ms) for lv, t0 in healthy if (ms := connection_ms_per_request(raw, t0, lv))]
    if not measured:
        return None
    values = [ms for _, _, ms in measured]
    rates = [lv.ok_rps for lv, _, _ in measured]
    if len(measured) == 1:
        level, t0, ms = measured[0]
        seconds = per_second_ms(raw, t0, level) or [ms]
        values = [ms, *seconds]
    return HoldTime(
        statistics.median(values) if len(measured) > 1 else measured[0][2],
        SOURCE,
        min(values),
        max(values),
        len(measured),
        (min(rates), max(rates)),
    )


def at_knee(raw: RawMode, t0: int | None, level: Level | None) -> PoolAtKnee | None:
    """The pool at the first unhealthy level when it was the queue there: in most sampled seconds every connection
    in use (active = max) and requests pending; None otherwise or without the gauges."""
    if level is None:
        return None
    rows = [raw.actuator[s] for s in _seconds(t0, level) if s in raw.actuator]
    sampled: list[tuple[float, float, float]] = []
    for r in rows:
        a, p, m = (r.metric(column) for column in (HIKARI_ACTIVE, HIKARI_PENDING, HIKARI_MAX))
        if a is not None and p is not None and m:
            sampled.append((a, p, m))
    if not sampled:
        return None
    full = [p for a, p, m in sampled if a >= m and p > 0]
    if len(full) < SATURATED_SHARE * len(sampled):
        return None
    return PoolAtKnee(max(m for _, _, m in sampled), max(full), level.target_rps)
