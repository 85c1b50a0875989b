"""The stand-in proven never the bottleneck: the delay the delay-service actually served, level by level, against the
distribution it was configured with (core/downstream.py).

The delay-service records each answer's served delay (arrival to answer, ms) in one HdrHistogram interval per second
(raw/delay/served.hlog, the injectors' format). The limit is the configured p99 plus SERVED_ALLOWANCE_FACTOR x
max(SERVED_P99_FLOOR_MS, SERVED_P99_RATIO x that p99). A level is late when more of its answers came after that limit
than chance allows: the distribution's own share above it plus SERVED_TAIL_SLACK (what a p99 lets through), by a
one-sided binomial test at SERVED_ALPHA. The body is held too: a level is also late when more of its answers came
after the configured p90 (then p50) plus that percentile's allowance than the percentile itself lets past (a shift
under a tail served on time). A percentile read off a level's answers is itself a sample: a lognormal's p99
over 130 answers is its second slowest answer, seen at 761 ms against 500 configured from a faithful stand-in, so no
rule on the raw percentile can tell a slow stand-in from a short level. A late level was measured against a slower
downstream than the one asked for (a late timer, a starved event loop, a machine too busy to answer on time): what it
measured is the stand-in's, so it is set aside with this reason (analysis/set_aside.instrument_saturated), like any
level whose instrument was saturated: it costs that level, not the pass. Only a rise counts: a served delay below the
configured one cannot make the service look worse. Pure functions of the log and the levels;
summary/judge/served_check.py reads them onto the levels.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from hdrh.histogram import HdrHistogram

from loadlab.analysis import binomial, hlog
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
# Beyond the limit a faithful stand-in may put the distribution's own share plus this much (the 1% a p99 leaves), and
# a level is only called late when a binomial test says its count beyond the limit is that unlikely by chance: a
# starved stand-in is far beyond it (a third of its answers past 140 ms for a constant 100 ms, at 3% of a core).
SERVED_TAIL_SLACK = 0.01
SERVED_ALPHA = 0.001
# The percentile quoted beside the count: a p99 needs about a hundred answers behind it (hlog.resolved), a shorter
# level is quoted by its p90, one with fewer than ten answers by its median. Every level is judged, whatever its
# count: the binomial test carries a small count (8 answers all ten times late: p ≈ 1e-14), and a starved stand-in
# answers few requests precisely because it is starved (seen: 8 answers at 988 ms for a constant 100 ms, which a
# ten-answer minimum left unjudged).
MIN_ANSWERS_P99, MIN_ANSWERS_P90 = 100, 10
# The body's percentiles, each checked for a shift past it plus its allowance (`late_in_the_body`), the p90 first.
BODY_PERCENTILES = (90.0, 50.0)
TAG = "served"
# Each injected failure is also counted under its own tag (ServedDelays.Outcome).
INJECTED_TAGS = ("error", "reset")
# The calls whose caller had gone (issue 45), as ServedDelays names them (test_served_caller_gone.py holds them equal):
# a call carries how long its caller will still wait, ms, in this header; an answer sent later than that after its
# arrival is also counted under ORPHAN_TAG (value: its served delay), and a request whose caller closed the connection
# before its answer under CANCELLED_TAG (value: ms from its arrival to the close), with or without the header.
CALLER_WAITS_HEADER = "Loadlab-Caller-Waits-Ms"
ORPHAN_TAG = "orphan"
CANCELLED_TAG = "cancelled"


def read(path: Path) -> dict[int, list[str]]:
    """The served log's payloads by epoch second; {} when there is none (a run from before it, a dead stand-in)."""
    if not path.is_file():
        return {}
    out: dict[int, list[str]] = {}
    for interval in hlog.read_log(path).intervals:
        if interval.tag in (TAG, None):
            out.setdefault(interval.second, []).append(interval.payload)
    return out


def tagged(path: Path, tag: str) -> dict[int, list[str]]:
    """The served log's payloads of one tag (e.g. `brownout`) by epoch second; {} without any."""
    if not path.is_file():
        return {}
    out: dict[int, list[str]] = {}
    for interval in hlog.read_log(path).intervals:
        if interval.tag == tag:
            out.setdefault(interval.second, []).append(interval.payload)
    return out


def count_by_second(path: Path, tag: str) -> dict[int, int]:
    """The served log's answers of one tag per epoch second; {} without any."""
    return {s: sum(hlog.decode(p).get_total_count() for p in payloads) for s, payloads in tagged(path, tag).items()}


@dataclass(frozen=True)
class CallerGone:
    """One second's calls whose caller had gone: answered after it stopped waiting, or cancelled by its close."""

    orphan: int = 0
    cancelled: int = 0


def caller_gone_by_second(path: Path) -> dict[int, CallerGone]:
    """The delay-service's orphaned and cancelled calls per epoch second (ascending), each second with either; {}
    without any (no log, a run from before the tags, or a caller that never left)."""
    orphan, cancelled = count_by_second(path, ORPHAN_TAG), count_by_second(path, CANCELLED_TAG)
    return {s: CallerGone(orphan.get(s, 0), cancelled.get(s, 0)) for s in sorted(orphan.keys() | cancelled.keys())}


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


def record_served(levels: list[Level], t0: int | None, by_second: dict[int, list[str]]) -> list[Level]:
    """The levels, each with its served_ms: what the stand-in served over its seconds (the page's and the
    calibration's)."""
    return [_with_served(level, t0, by_second) for level in levels]


def _with_served(level: Level, t0: int | None, by_second: dict[int, list[str]]) -> Level:
    if t0 is None or level.first_second is None:
        return level
    start = t0 + level.first_second
    payloads = [p for s in range(start, start + level.seconds) for p in by_second.get(s, ())]
    merged = hlog.merge_payloads(payloads) if payloads else None
    if merged is None or not merged.get_total_count():
        return level
    served_ms = {
        "answers": merged.get_total_count(),
        **{f"p{p:g}": merged.get_value_at_percentile(p) for p in SERVED_PERCENTILES},
    }
    return replace(level, served_ms=served_ms)


def kept_to_its_distribution(level: Level) -> bool:
    """Whether the stand-in's own record judged this level on enough answers (MIN_ANSWERS_P90) and found it on time.
    A probe slower than that record was slow outside the stand-in's handler: the sampler that times it is a Python
    thread on the same host, and on a busy host its own wait for a CPU lands in its timing (seen in CI: probes of
    286 and 297 ms in seconds where the stand-in served every answer, the probe's included, within 226 ms)."""
    answers = (level.served_ms or {}).get("answers") or 0
    return answers >= MIN_ANSWERS_P90 and level.served_late is None


def count_injected(levels: list[Level], t0: int | None, by_second: dict[int, int]) -> list[Level]:
    """The levels, each with its downstream_injected: the delay-service's own count over the level's seconds."""
    counted = []
    for level in levels:
        if t0 is not None and level.first_second is not None:
            start = t0 + level.first_second
            injected = sum(by_second.get(s, 0) for s in range(start, start + level.seconds))
            level = replace(level, downstream_injected=injected)
        counted.append(level)
    return counted


def allowed_ms(dist: Distribution, percentile: float = 99.0) -> float:
    """The served delay past which an answer counts as late: the configured percentile plus the allowance."""
    configured = dist.quantile_ms(percentile / 100)
    return configured + SERVED_ALLOWANCE_FACTOR * max(SERVED_P99_FLOOR_MS, SERVED_P99_RATIO * configured)


def allowed_p99_ms(dist: Distribution) -> float:
    return allowed_ms(dist, 99.0)


def merged_answers(seconds: Iterable[int], by_second: dict[int, list[str]]) -> HdrHistogram | None:
    """The level's served delays as one histogram (None without any)."""
    payloads = [p for s in seconds for p in by_second.get(s, ())]
    merged = hlog.merge_payloads(payloads) if payloads else None
    return merged if merged is not None and merged.get_total_count() else None


def late(answers: int, beyond: int, dist: Distribution, limit_ms: float) -> tuple[bool, float]:
    """(whether `beyond` of `answers` past limit_ms are more than chance allows, the share allowed there)."""
    allowed = min(1.0, dist.share_above_ms(limit_ms) + SERVED_TAIL_SLACK)
    return binomial.beyond_chance(answers, beyond, allowed, SERVED_ALPHA), allowed


def level_problems(
    levels: list[Level], t0: int | None, by_second: dict[int, list[str]], dist: Distribution
) -> list[tuple[Level, str]]:
    """Each level the stand-in served late (`late` at its tail, `late_in_the_body` at its p90 and p50), with the
    sentence that says so."""
    if t0 is None or not by_second:
        return []
    problems = []
    for level in levels:
        if level.first_second is None:
            continue
        start = t0 + level.first_second
        merged = merged_answers(range(start, start + level.seconds), by_second)
        count = merged.get_total_count() if merged is not None else 0
        if count and (text := _why_late(merged, count, dist)):
            problems.append((level, text))
    return problems


def late_in_the_body(answers: int, beyond: int, percentile: float) -> tuple[bool, float]:
    """(whether `beyond` of `answers` past the configured percentile plus its allowance are more than that percentile
    lets past it, the share allowed): a shift of the body, where the tail's test (`late`) weighs the shape. Weighed
    by its shape, a lognormal's median (100 ms, p99 1,000) served 10 ms late over 18,000 answers is "late" at
    p < 1e-5; the allowance forgives what the timer adds to every answer (3–8 ms at that median, measured)."""
    allowed = min(1.0, 1 - percentile / 100 + SERVED_TAIL_SLACK)
    return binomial.beyond_chance(answers, beyond, allowed, SERVED_ALPHA), allowed


def _why_late(merged: HdrHistogram, count: int, dist: Distribution) -> str | None:
    limit = allowed_ms(dist)
    beyond = hlog.count_above(merged, limit)
    is_late, allowed = late(count, beyond, dist, limit)
    if is_late:
        quoted = 99.0 if count >= MIN_ANSWERS_P99 else 90.0 if count >= MIN_ANSWERS_P90 else 50.0
        return _sentence(merged, count, dist, quoted, limit, beyond, f"the distribution allows {allowed:.1%}")
    # The tail's test cannot see a body served late under a tail served on time: a bimodal's fast 95% served at up to
    # 289 ms for 100 ms (its p90; the 1,000 ms tail on time) on a saturated machine, measured.
    for percentile in BODY_PERCENTILES:
        limit = allowed_ms(dist, percentile)
        beyond = hlog.count_above(merged, limit)
        is_late, allowed = late_in_the_body(count, beyond, percentile)
        if is_late:
            return _sentence(
                merged, count, dist, percentile, limit, beyond, f"its p{percentile:g} allows {allowed:.1%}"
            )
    return None


def _sentence(
    merged: HdrHistogram, count: int, dist: Distribution, percentile: float, limit: float, beyond: int, allows: str
) -> str:
    value = merged.get_value_at_percentile(percentile)
    return (
        f"the delay-service served its answers slower than configured: p{percentile:g} {value:.0f} ms over "
        f"{count} answers against {dist.quantile_ms(percentile / 100):.0f} ms ({dist.describe()}; limit "
        f"{limit:.0f} ms), {beyond} of them past the limit where {allows} "
        f"(binomial p < {SERVED_ALPHA:g}): the stand-in, not the service, was slow"
    )
