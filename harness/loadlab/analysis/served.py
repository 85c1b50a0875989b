"""The stand-in proven never the bottleneck: the delay the delay-service actually served, level by level, against the
distribution it was configured with (core/downstream.py).

The delay-service records each answer's served delay (arrival to answer, ms) in one HdrHistogram interval per second
(raw/delay/served.hlog, the injectors' format). A level whose served p99 is above the configured p99 by more than
SERVED_ALLOWANCE_FACTOR x max(SERVED_P99_FLOOR_MS, SERVED_P99_RATIO x that p99) was measured against a slower
downstream than the one asked for: a late timer, a starved event loop, a machine too busy to answer on time. What
that level measured is then the stand-in's, so the level is set aside with this reason
(analysis/validity.instrument_saturated), like any level whose instrument was saturated: it costs that level, not
the pass. Only a rise counts: a served delay below the configured one cannot make the service look worse. Pure
functions of the log and the levels; summary/served_check.py reads them onto the levels.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from loadlab.analysis import hlog
from loadlab.analysis.levels import Level
from loadlab.core.downstream import Distribution

# The rule: "its p99 more than 10% or 20 ms above the configured p99" (whichever is larger), doubled: on this
# shared 2-core machine a faithful stand-in's p99 is that late from scheduling alone (measured, a clean level: p99
# 134 ms for a constant 100 ms at 70 rps, host 81% busy, median 101 ms), while a starved one is far beyond it (p90
# 763 ms and 751 ms at its two levels, 3% of a core; its median stayed 100 ms: throttling delays bursts, so the tail,
# not the median, is the stand-in's signature).
SERVED_P99_RATIO = 0.10
SERVED_P99_FLOOR_MS = 20.0
SERVED_ALLOWANCE_FACTOR = 2.0
# A p99 needs about a hundred answers behind it (hlog.resolved): a level with fewer (a short level at a low rate) is
# judged on its p90 against the configured p90, by the same allowance; one with fewer than ten answers is not judged.
MIN_ANSWERS_P99, MIN_ANSWERS_P90 = 100, 10
TAG = "served"
# Each injected failure is also counted under its own tag (ServedDelays.Outcome).
INJECTED_TAGS = ("error", "reset")


def read(path: Path) -> dict[int, list[str]]:
    """The served log's payloads by epoch second; {} when there is none (a run from before it, a dead stand-in)."""
    if not path.is_file():
        return {}
    out: dict[int, list[str]] = {}
    for interval in hlog.read_log(path).intervals:
        if interval.tag in (TAG, None):
            out.setdefault(interval.second, []).append(interval.payload)
    return out


def injected_by_second(path: Path) -> dict[int, int]:
    """The delay-service's injected failures (tags error, reset) per epoch second."""
    if not path.is_file():
        return {}
    out: dict[int, int] = {}
    for interval in hlog.read_log(path).intervals:
        if interval.tag in INJECTED_TAGS:
            count = hlog.decode(interval.payload).get_total_count()
            out[interval.second] = out.get(interval.second, 0) + count
    return out


SERVED_PERCENTILES = (50.0, 90.0, 99.0, 99.9)


def record_served(levels: list[Level], t0: int | None, by_second: dict[int, list[str]]) -> None:
    """Sets each level's served_ms: what the stand-in served over its seconds (the page's and the calibration's)."""
    for level in levels:
        if t0 is None or level.first_second is None:
            continue
        start = t0 + level.first_second
        payloads = [p for s in range(start, start + level.seconds) for p in by_second.get(s, ())]
        merged = hlog.merge_payloads(payloads) if payloads else None
        if merged is not None and merged.get_total_count():
            level.served_ms = {
                "answers": merged.get_total_count(),
                **{f"p{p:g}": merged.get_value_at_percentile(p) for p in SERVED_PERCENTILES},
            }


def count_injected(levels: list[Level], t0: int | None, by_second: dict[int, int]) -> None:
    """Sets each level's downstream_injected from the delay-service's own count over the level's seconds."""
    for level in levels:
        if t0 is not None and level.first_second is not None:
            start = t0 + level.first_second
            level.downstream_injected = sum(by_second.get(s, 0) for s in range(start, start + level.seconds))


def allowed_ms(dist: Distribution, percentile: float = 99.0) -> float:
    """The slowest served percentile that still stands for the configured distribution."""
    configured = dist.quantile_ms(percentile / 100)
    return configured + SERVED_ALLOWANCE_FACTOR * max(SERVED_P99_FLOOR_MS, SERVED_P99_RATIO * configured)


def allowed_p99_ms(dist: Distribution) -> float:
    return allowed_ms(dist, 99.0)


def served_percentile(seconds: Iterable[int], by_second: dict[int, list[str]]) -> tuple[int, float, float | None]:
    """(answers, the percentile they resolve: 99 or 90, its value in ms) over these epoch seconds."""
    payloads = [p for s in seconds for p in by_second.get(s, ())]
    merged = hlog.merge_payloads(payloads) if payloads else None
    count = merged.get_total_count() if merged is not None else 0
    percentile = 99.0 if count >= MIN_ANSWERS_P99 else 90.0
    if count < MIN_ANSWERS_P90:
        return count, percentile, None
    return count, percentile, float(merged.get_value_at_percentile(percentile))


def level_problems(
    levels: list[Level], t0: int | None, by_second: dict[int, list[str]], dist: Distribution
) -> list[tuple[Level, str]]:
    """Each level whose served delay departs from the distribution (allowed_ms), with the sentence that says so."""
    if t0 is None or not by_second:
        return []
    problems = []
    for level in levels:
        if level.first_second is None:
            continue
        start = t0 + level.first_second
        count, percentile, value = served_percentile(range(start, start + level.seconds), by_second)
        configured, limit = dist.quantile_ms(percentile / 100), allowed_ms(dist, percentile)
        if value is None or value <= limit:
            continue
        problems.append(
            (
                level,
                f"the delay-service served its answers slower than configured: p{percentile:g} {value:.0f} ms over "
                f"{count} answers against {configured:.0f} ms ({dist.describe()}; limit {limit:.0f} ms): the stand-in, "
                f"not the service, was slow",
            )
        )
    return problems
