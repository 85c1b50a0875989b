"""The stand-in proven never the bottleneck: the delay the delay-service actually served, level by level, against the
distribution it was configured with (core/downstream.py).

The delay-service records each answer's served delay (arrival to answer, ms) in one HdrHistogram interval per second
(raw/delay/served.hlog, the injectors' format). A level whose served p99 is above the configured p99 by more than
max(SERVED_P99_FLOOR_MS, SERVED_P99_RATIO x that p99) was measured against a slower downstream than the one asked for:
a late timer, a starved event loop, a machine too busy to answer on time. Its knee is then the stand-in's, and the
run is invalid with that level named. Only a rise counts: a served delay below the configured one cannot make the
service look worse. Pure functions of the log and the levels; summary/judging.py wires them in.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from loadlab.analysis import hlog
from loadlab.analysis.levels import Level
from loadlab.core.downstream import Distribution

# The rule: "its p99 more than 10% or 20 ms above the configured p99" (whichever is larger).
SERVED_P99_RATIO = 0.10
SERVED_P99_FLOOR_MS = 20.0
# A p99 needs about a hundred answers behind it (hlog.resolved); a level with fewer is not judged on it.
MIN_ANSWERS = 100
TAG = "served"


def read(path: Path) -> dict[int, list[str]]:
    """The served log's payloads by epoch second; {} when there is none (a run from before it, a dead stand-in)."""
    if not path.is_file():
        return {}
    out: dict[int, list[str]] = {}
    for interval in hlog.read_log(path).intervals:
        if interval.tag in (TAG, None):
            out.setdefault(interval.second, []).append(interval.payload)
    return out


def allowed_p99_ms(dist: Distribution) -> float:
    """The slowest served p99 that still stands for the configured distribution."""
    p99 = dist.p99_high_ms()
    return p99 + max(SERVED_P99_FLOOR_MS, SERVED_P99_RATIO * p99)


def served_p99_ms(seconds: Iterable[int], by_second: dict[int, list[str]]) -> tuple[int, float | None]:
    """(answers, their p99 in ms) over these epoch seconds."""
    payloads = [p for s in seconds for p in by_second.get(s, ())]
    if not payloads:
        return 0, None
    merged = hlog.merge_payloads(payloads)
    count = merged.get_total_count()
    return count, float(merged.get_value_at_percentile(99.0)) if count else None


def level_problems(
    levels: list[Level], t0: int | None, by_second: dict[int, list[str]], dist: Distribution
) -> list[tuple[Level, str]]:
    """Each level whose served delay departs from the distribution, with the sentence that says so."""
    if t0 is None or not by_second:
        return []
    limit = allowed_p99_ms(dist)
    problems = []
    for level in levels:
        if level.first_second is None:
            continue
        start = t0 + level.first_second
        count, p99 = served_p99_ms(range(start, start + level.seconds), by_second)
        if count < MIN_ANSWERS or p99 is None or p99 <= limit:
            continue
        problems.append(
            (
                level,
                f"the delay-service served its answers slower than configured: p99 {p99:.0f} ms over {count} answers "
                f"against {dist.p99_high_ms():.0f} ms ({dist.describe()}; limit {limit:.0f} ms) at level "
                f"{level.index} ({level.target_rps:.0f} rps): the stand-in, not the service, was slow",
            )
        )
    return problems


def reasons(problems: list[tuple[Level, str]]) -> list[str]:
    """The invalid reason: the first level that departed, and how many more did."""
    if not problems:
        return []
    more = len(problems) - 1
    return [problems[0][1] + (f" (and {more} more level{'s' if more > 1 else ''})" if more else "")]
