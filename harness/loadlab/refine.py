"""Localising a knee between two coarse levels (REFINE=1): which rates a fine pass offers, and what it found.

The coarse stairs bracket the knee between the last healthy rate L and the first unhealthy rate U. A fine pass is a
second, ascending stairs from L towards U, in steps of at most KNEE_RESOLUTION × L, so two neighbouring fine rates
are at most 5% of the knee apart (the knee is ≥ L). It starts at L itself: that level re-proves health after the
drain (the same service, still warm, in the state the coarse pass measured). A bracket too wide for one pass of
MAX_LEVELS_PER_PASS levels (a knee found at the second coarse level) is cut into that many equal steps, and the next
pass refines the step that holds the knee, until the bracket is localised or MAX_PASSES were run.

The rule for what a fine pass says, the same as the coarse pass's: its levels count up to and including the first
unhealthy one, and that one closes the bracket. A fine level found unhealthy after healthy ones is taken as the knee
even when it might be a hiccup (another process on the machine, a GC): that can only place the knee lower, never
higher, and a repeated run (REPEAT) shows how far such noise moves it. A fine level unhealthy at or below a rate
already measured healthy contradicts the earlier pass: the service or the machine was not in the state it measured
(a backlog not drained, a slower minute), so that pass proves nothing and the earlier bracket stands, with the reason.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# The bracket's width that counts as "localised", as a share of the knee (issue 11: 5%).
KNEE_RESOLUTION = 0.05
# A fine pass offers at most this many levels. 8 covers the default run's platform bracket (900 → 1,200 rps: 7 levels
# of 43 rps) in one pass; a wider bracket takes a second pass (each costs a Gatling start, a warm-up and a drain).
MAX_LEVELS_PER_PASS = 8
# At most this many fine passes per mode: 8 × 8 × 8 steps narrow any bracket up to 25 times its lower rate.
MAX_PASSES = 3
# A fine pass starts a new Gatling JVM, which compiles its hot paths for its first 20-30 s and, on a shared machine,
# takes up to a core from the services meanwhile. Measured here: a pass that warmed up 5 s at L itself (95% of a
# platform pool's capacity) built a backlog that never drained; one that warmed up 10 s at 900 rps still had Gatling at
# a whole core and found 1,200 rps unhealthy, which the coarse pass had measured healthy. So a fine pass warms up at
# half of L, where the services have headroom for the compiler, for as long as the coarse pass did (WARMUP_SECONDS),
# within these bounds; like every warm-up it climbs to that rate over its first half (Schedule.WARMUP_RAMP_FROM).
# The upper bound keeps the default run within 6 minutes now that both modes collapse and get a pass (20 s: 6 min 22 s).
WARMUP_MIN_SECONDS = 5
WARMUP_MAX_SECONDS = 15
WARMUP_SHARE = 0.5


def warmup_seconds(coarse_warmup_seconds: int) -> int:
    return max(WARMUP_MIN_SECONDS, min(coarse_warmup_seconds, WARMUP_MAX_SECONDS))


def warmup_rate(first_rate: float) -> float:
    """The fine pass's warm-up rate: half of its first level's rate (the bracket's healthy side)."""
    return first_rate * WARMUP_SHARE


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


def fine_rates(
    bracket: Bracket, resolution: float = KNEE_RESOLUTION, max_levels: int = MAX_LEVELS_PER_PASS
) -> list[float]:
    """The next fine pass's offered rates: L, then equal steps below U (U itself is already known unhealthy), each
    at most resolution × L, or fewer and wider when max_levels would not reach U. Empty when the bracket is already
    narrow enough or has no healthy side (the first coarse level was unhealthy: nothing to start from).

    The step is rounded to a readable unit (a whole rps from 10 rps up), down when it must stay within the
    resolution, up when it must reach U in max_levels steps."""
    low, high = bracket.healthy, bracket.unhealthy
    if low <= 0 or high <= low or bracket.localised(resolution):
        return []
    finest = resolution * low
    unit = 1.0 if finest >= 10 else 0.1 if finest >= 1 else 0.01
    step = max(math.floor(finest / unit + 1e-9) * unit, unit)
    if (high - low) / step > max_levels:
        step = math.ceil((high - low) / max_levels / unit - 1e-9) * unit
    steps = math.ceil((high - low) / step - 1e-9)
    return [round(low + i * step, 3) for i in range(steps)]


def most_fine_levels(coarse_rates: Sequence[float]) -> list[tuple[int, float]]:
    """An upper bound on the fine passes of one collapsed mode, for the preflight's disk estimate: per pass, (its
    levels, the highest rate any of them can offer). Whichever coarse bracket holds the knee, every pass stays below
    the bracket's unhealthy rate; the pass after one is planned on that pass's lowest step, the widest relative to
    its rate and so the one taking the most levels (and passes) to localise. No early stop is assumed."""
    rates = sorted(coarse_rates)
    worst: list[tuple[int, float]] = []
    for low, high in zip(rates, rates[1:]):
        passes, bracket = [], Bracket(low, high)
        while len(passes) < MAX_PASSES:
            fine = fine_rates(bracket)
            if not fine:
                break
            passes.append((len(fine), high))
            bracket = Bracket(fine[0], fine[1] if len(fine) > 1 else high)
        if sum(n * top for n, top in passes) > sum(n * top for n, top in worst):
            worst = passes
    return worst


def combine(before: Bracket, fine: Sequence[tuple[float, bool]]) -> tuple[Bracket, str | None]:
    """The bracket after a fine pass, and why it was not narrowed when a pass contradicted the earlier one.

    fine: the pass's levels as (rate, healthy), judged like the coarse ones. The pass is an ascending stairs, so in
    rate order its first unhealthy level is also the first in time; what follows it is not looked at."""
    healthy, unhealthy = before.healthy, before.unhealthy
    for rate, ok in sorted(fine):
        if not ok:
            if rate <= before.healthy:
                return before, (
                    f"the fine pass found {rate:,.0f} rps unhealthy, which was measured healthy before: "
                    f"the bracket was not narrowed"
                )
            return Bracket(healthy, min(unhealthy, rate)), None
        if rate < unhealthy:
            healthy = max(healthy, rate)
    return Bracket(healthy, unhealthy), None
