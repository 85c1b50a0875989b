"""The knee's bracket [last healthy rate, first unhealthy rate], and how a fine pass narrows it (knee.py judges the
passes; this is the arithmetic of the interval)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# The bracket's width that counts as "localised", as a share of the knee.
KNEE_RESOLUTION = 0.05


@dataclass(frozen=True)
class Bracket:
    healthy: float  # the highest healthy rate before the first unhealthy one (0: none)
    unhealthy: float  # the first unhealthy rate
    confirmed: bool = False  # the unhealthy rate (or a rate beyond it) was measured unhealthy a second time

    @property
    def width_ratio(self) -> float:
        return (self.unhealthy - self.healthy) / self.healthy if self.healthy else math.inf

    def narrow(self, resolution: float = KNEE_RESOLUTION) -> bool:
        return self.width_ratio <= resolution + 1e-9

    def localised(self, resolution: float = KNEE_RESOLUTION) -> bool:
        """Narrow enough, and its unhealthy side measured unhealthy twice: a knee placed, nothing left to measure."""
        return self.narrow(resolution) and self.confirmed


def combine(before: Bracket, fine: Sequence[tuple[float, bool]]) -> tuple[Bracket | None, str | None]:
    """The bracket after a fine pass, and why it was not narrowed when the pass contradicted the earlier one. No
    bracket (None, None): the pass held the earlier unhealthy rate (or beyond) healthy, so that level did not
    reproduce and no knee is known.

    fine: the pass's levels as (rate, healthy). The pass is an ascending stairs, so in rate order its first unhealthy
    level is also the first in time; what follows it is not looked at."""
    healthy, unhealthy = before.healthy, before.unhealthy
    passed = False  # the earlier unhealthy rate (or one beyond it) was measured healthy
    for rate, ok in sorted(fine):
        if not ok:
            if rate <= before.healthy:
                return before, (
                    f"the fine pass found {rate:,.0f} rps unhealthy, which was measured healthy before: "
                    f"the bracket was not narrowed"
                )
            if rate >= unhealthy and not passed:  # measured unhealthy again, there or beyond: confirmed
                return Bracket(healthy, unhealthy, confirmed=True), None
            return Bracket(healthy, rate), None  # a new first unhealthy rate, measured once
        passed = passed or rate >= unhealthy
        healthy = max(healthy, rate)
    return (None, None) if passed else (Bracket(healthy, unhealthy, before.confirmed), None)
