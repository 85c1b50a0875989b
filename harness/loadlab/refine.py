"""Localising a knee between two coarse levels (REFINE=1): which rates the fine pass offers, and what it found.

The coarse stairs bracket the knee between the last healthy rate L and the first unhealthy rate U. The fine pass is
a second, ascending stairs from L to U in steps of at most KNEE_RESOLUTION × L, so two neighbouring fine rates are at
most 5% of the knee apart (the knee is ≥ L). It starts at L itself: that level re-proves health after the drain and
gives the fine pass a baseline; its early stop ends it at the first unhealthy fine level, and what comes after a
collapse says nothing about the knee, as in the coarse pass.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# The bracket's width that counts as "localised", as a share of the knee (issue 11: 5%).
KNEE_RESOLUTION = 0.05


@dataclass(frozen=True)
class Bracket:
    healthy: float  # the highest healthy rate before the first unhealthy one
    unhealthy: float  # the first unhealthy rate

    @property
    def width_ratio(self) -> float:
        return (self.unhealthy - self.healthy) / self.healthy if self.healthy else math.inf

    def localised(self, resolution: float = KNEE_RESOLUTION) -> bool:
        return self.width_ratio <= resolution + 1e-9

    def as_list(self) -> list[float]:
        return [self.healthy, self.unhealthy]


def fine_rates(bracket: Bracket, resolution: float = KNEE_RESOLUTION) -> list[float]:
    """The fine pass's offered rates: L, then steps of ≤ resolution × L below U (U itself is already known bad).
    Empty when the bracket is already narrow enough or has no healthy side."""
    low, high = bracket.healthy, bracket.unhealthy
    if low <= 0 or high <= low or bracket.localised(resolution):
        return []
    steps = math.ceil((high - low) / (resolution * low))
    step = (high - low) / steps
    return [round(low + i * step, 3) for i in range(steps)]


def combine(coarse: Bracket, fine: Sequence[tuple[float, bool]]) -> tuple[Bracket, str | None]:
    """The bracket after the fine pass, and why it was not narrowed when it was not.

    fine: the fine levels as (rate, healthy), judged like the coarse ones (only levels before the first unhealthy one
    count). When the fine pass finds its first level — the coarse healthy rate itself — unhealthy, the service or the
    machine was not in the state the coarse pass measured (a backlog not drained, a slower machine): the fine pass
    proves nothing and the coarse bracket stands, with that reason."""
    ordered = sorted(fine)
    if ordered and ordered[0][0] <= coarse.healthy and not ordered[0][1]:
        return coarse, (
            f"the fine pass found {ordered[0][0]:,.0f} rps unhealthy, which the coarse pass measured "
            f"healthy: the bracket was not narrowed"
        )
    healthy, unhealthy = coarse.healthy, coarse.unhealthy
    for rate, ok in ordered:
        if not ok:
            unhealthy = min(unhealthy, rate)
            break
        if rate < unhealthy:
            healthy = max(healthy, rate)
    return Bracket(healthy, unhealthy), None
