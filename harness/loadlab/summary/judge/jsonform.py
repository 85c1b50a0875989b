"""How summary.json spells a level, a bracket and a number: whole numbers as ints, ratios and means rounded."""

from __future__ import annotations

import math
from dataclasses import fields, replace

from loadlab.analysis import health, hlog
from loadlab.analysis.bracket import Bracket
from loadlab.analysis.knee import Verdict
from loadlab.analysis.levels import Evidence, Level, cpu_ms_per_request, level_number
from loadlab.summary.reading import waits
from loadlab.summary.schema.level_records import LevelRecord


def level_records(levels: list[Level], verdict: Verdict) -> list[LevelRecord]:
    """A pass's levels as judged: each one's health and, when its instrument was saturated, why it was set aside."""
    return [
        level_record(lv, ok, why, verdict.set_aside.get(i))
        for i, (lv, (ok, why)) in enumerate(zip(levels, verdict.health))
    ]


def first_unhealthy_level(levels: list[Level], verdict: Verdict) -> int | None:
    """The number, counted from 1, of a pass's first unhealthy level (summary.json's `first_unhealthy_level`)."""
    return None if verdict.first_unhealthy is None else level_number(levels[verdict.first_unhealthy].position)


def level_record(level: Level, healthy: bool, reasons: list[str], set_aside: str | None = None) -> LevelRecord:
    latency = level.latency
    return LevelRecord(
        index=level_number(level.position),  # its number, counted from 1
        target_rps=plain_number(level.target_rps),
        offered_rps=rounded(level.offered_rps, 1),
        ok_rps=rounded(level.ok_rps, 1),
        error_ratio=rounded(level.error_ratio, 4),
        p50_ms=latency.p50_ms if latency else None,
        p95_ms=latency.p95_ms if latency else None,
        p99_ms=latency.p99_ms if latency else None,
        max_ms=latency.max_ms if latency else None,
        ok=level.ok,
        # The spectrum's table (hlog.SPECTRUM), exact from the level's merged histogram; "99.9": 1203, ...
        percentiles_ms=spectrum(level),
        ko_p50_ms=level.ko_latency.p50_ms if level.ko_latency else None,
        errors_by_kind=dict(level.errors_by_kind),
        # Of those errors, the ones the delay-service injected (DOWNSTREAM_ERRORS/RESETS): not the service's own.
        downstream_injected=level.downstream_injected,
        # What the delay-service served over the level (answers, p50 … p99.9 ms): beside summary.json's `downstream`.
        served_ms=level.served_ms,
        seconds=level.seconds,
        healthy=healthy,
        unhealthy_reasons=reasons,
        # "count": too few requests to resolve a p99, its tail judged on how many passed the limit (health.py)
        tail_judged_by=health.tail_judged_by(level),
        # why the level was set aside (its instrument was saturated: the knee is placed on the other levels), or null
        set_aside=set_aside,
        first_second=level.first_second,
        evidence=evidence_of(level.evidence),
        no_server_evidence=level.no_server_evidence,
        thread_cpu_ms_per_request=rounded(cpu_ms_per_request(level.evidence.thread_cpu_pct, level.ok_rps), 2),
        # where its requests waited (the wait agent's samples), or null: no profile
        waits=waits.record(level.waits),
    )


def spectrum(level: Level) -> dict[str, int] | None:
    values = hlog.percentiles(level.histogram, hlog.SPECTRUM) if level.histogram is not None else None
    return {f"{p:g}": v for p, v in values.items()} if values else None


def evidence_of(evidence: Evidence) -> Evidence:
    """A level's evidence as summary.json gives it: every mean to 0.1."""
    return replace(evidence, **{f.name: rounded(getattr(evidence, f.name), 1) for f in fields(evidence)})


def interval(bracket: Bracket | None) -> list[float | int | None] | None:
    """[last healthy, first unhealthy] rate, to 0.1 rps; a healthy side of 0 (none) as null."""
    if bracket is None:
        return None
    healthy = plain_number(round(bracket.healthy, 1)) if bracket.healthy else None
    return [healthy, plain_number(round(bracket.unhealthy, 1))]


def rounded(value: float | None, digits: int) -> float | int | None:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return None
    return plain_number(round(value, digits))


def plain_number(value: float | int) -> float | int:
    """Whole numbers as ints, so summary.json reads 1000, not 1000.0."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
