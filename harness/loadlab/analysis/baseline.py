"""Where the p99 limit's baseline comes from: the p50 of the first level that showed it kept up with its rate and few
of its requests failed (health.rate_reasons, the criteria that need no baseline; its own p50 stands for the baseline
of the in-flight allowance). A first level that was itself broken (a cold start falling behind, a dependency not yet
up) never sets it: its p50, measured while requests queued or failed, would lift every later level's limit. The
simulation's early stop takes its live baseline by the same rule (gatling/…/LevelJudge.java)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from loadlab.analysis.health import rate_reasons
from loadlab.analysis.knee_words import level_words
from loadlab.core.thresholds import Thresholds

if TYPE_CHECKING:  # the level model needs hdrh; refine.py (and the preflight) import knee.py without it
    from loadlab.analysis.levels import Level


@dataclass(frozen=True)
class Baseline:
    p50_ms: float | None
    position: int | None  # the level whose p50 it is, by position in the pass
    said: str | None  # where it came from, in words (summary.json's `baseline_from`)


def first_steady(levels: list[Level], kept: list[int], thresholds: Thresholds) -> Baseline:
    """The baseline of a pass that was given none: the p50 of its first trusted level that kept up. With levels set
    aside before it (their instrument saturated), the lowest p50 of those that kept up, it included: a saturated
    instrument adds latency, it never takes any away; so when no trusted level kept up, a level set aside that did
    gives it. None when no level kept up."""
    steady: dict[int, float] = {}
    broke: list[str] = []
    for i, level in enumerate(levels):
        latency = level.latency
        reasons = rate_reasons(level, thresholds, latency.p50_ms) if latency else ["no successful answer"]
        if reasons or not latency:
            broke.append(f"{level_words(level)} broke: {reasons[0]}")
            continue
        steady[i] = latency.p50_ms
        if i in kept:
            at = min(steady, key=lambda j: (steady[j], j))
            said = level_words(levels[at]) + (f" ({'; '.join(broke)})" if broke else "")
            return Baseline(steady[at], at, said)
    if steady:  # none trusted kept up, but levels set aside did: their p50 bounds the service's from above
        at = min(steady, key=lambda j: (steady[j], j))
        return Baseline(steady[at], at, f"{level_words(levels[at])}, set aside: no trusted level kept up")
    if not kept:
        return Baseline(None, None, "none: every level was set aside")
    return Baseline(None, None, "none: no level kept up with its rate" + (f" ({broke[0]})" if broke else ""))
