"""Localising a knee between two coarse levels (REFINE=1): which rates a fine pass offers, and its warm-up.

The coarse stairs bracket the knee between the last healthy rate L and the first unhealthy rate U. A fine pass is a
second, ascending stairs from L through U, in steps of at most KNEE_RESOLUTION × L, so two neighbouring fine rates
are at most 5% of the knee apart (the knee is ≥ L). It starts at L itself: that level re-proves health after the
drain (the same service, still warm, in the state the coarse pass measured). It ends on U, or on the first step
beyond it: U was measured unhealthy once, and a knee is only placed where its first unhealthy rate was measured
unhealthy twice (knee.py); a U the fine pass holds healthy did not reproduce. A bracket too wide for one pass of
MAX_LEVELS_PER_PASS levels below U (a knee found at the second coarse level) is cut into that many equal steps, and
the next pass refines the step that holds the knee, until the bracket is localised (narrow and confirmed) or
MAX_PASSES were run. A bracket already narrow whose unhealthy side was measured once gets a pass of two levels: L,
then U (or a step beyond) measured again.
What a pass found, and how it narrows the bracket, is decided in knee.py; why a knee is still not localised after
its passes is said here (why_not_refined).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from loadlab.analysis.bracket import KNEE_RESOLUTION, Bracket
from loadlab.analysis.knee import Knee

# A fine pass offers at most this many levels below U (and U, or a step beyond it, on top). 8 covers the default
# run's platform bracket (900 → 1,200 rps: 7 levels of 43 rps) in one pass; a wider bracket takes a second pass (each
# costs a Gatling start, a warm-up and a drain).
MAX_LEVELS_PER_PASS = 8
# At most this many fine passes per mode: 8 × 8 × 8 steps narrow any bracket up to 25 times its lower rate; a pass
# whose first unhealthy rate falls below U measured it once, and the next pass measures it again.
MAX_PASSES = 3
# A fine pass starts a new Gatling JVM, which compiles its hot paths for its first 20-30 s and, on a shared machine,
# takes up to a core from the services meanwhile: warmed up at L itself (near a pool's capacity) it builds a backlog
# the pass never drains, and a coarse rate measured healthy reads unhealthy. So a fine pass warms up at half of L,
# where the services have headroom for the compiler, for as long as the coarse pass did (WARMUP_SECONDS), within
# these bounds (the upper one keeps a default run short); like every warm-up it climbs to that rate over its first
# half (Schedule.WARMUP_RAMP_FROM).
WARMUP_MIN_SECONDS = 5
WARMUP_MAX_SECONDS = 15
WARMUP_SHARE = 0.5


def warmup_seconds(coarse_warmup_seconds: int) -> int:
    return max(WARMUP_MIN_SECONDS, min(coarse_warmup_seconds, WARMUP_MAX_SECONDS))


def warmup_rate(first_rate: float) -> float:
    """The fine pass's warm-up rate: half of its first level's rate (the bracket's healthy side)."""
    return first_rate * WARMUP_SHARE


def fine_rates(
    bracket: Bracket, resolution: float = KNEE_RESOLUTION, max_levels: int = MAX_LEVELS_PER_PASS
) -> list[float]:
    """The next fine pass's offered rates: L, then equal steps through U (the last at U or the first step beyond
    it: U, measured unhealthy once, is measured again), each at most resolution × L, or fewer and wider when
    max_levels would not reach U. Empty when the bracket is localised (narrow and confirmed) or has no healthy side
    (the first coarse level was unhealthy: nothing to start from).

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
    return [round(low + i * step, 3) for i in range(steps + 1)]


def most_fine_levels(coarse_rates: Sequence[float]) -> list[tuple[int, float]]:
    """An upper bound on the fine passes of one collapsed mode, for the preflight's disk estimate: per pass, (its
    levels, the highest rate any of them can offer). Whichever coarse bracket holds the knee, every pass stays below
    the bracket's unhealthy rate; the pass after one is planned on that pass's lowest step, the widest relative to
    its rate and so the one taking the most levels (and passes) to localise, and never confirmed before the last
    pass; or a first pass whose bracket did not reproduce, a climb above it and a fine pass of the top bracket,
    whichever writes more. No early stop is assumed."""
    rates = sorted(coarse_rates)
    worst: list[tuple[int, float]] = []
    for low, high in zip(rates, rates[1:]):
        passes: list[tuple[int, float]] = []
        bracket = Bracket(low, high)
        while len(passes) < MAX_PASSES:
            fine = fine_rates(bracket)
            if not fine:
                break
            passes.append((len(fine), max(fine)))
            bracket = Bracket(fine[0], fine[1])
        if _weight(passes) > _weight(worst):
            worst = passes
    return max(worst, _most_with_a_climb(rates), key=_weight)


def _most_with_a_climb(rates: list[float]) -> list[tuple[int, float]]:
    """A first pass that holds its bracket's unhealthy rate healthy (it did not reproduce), a climb through every coarse
    rate above it (plan.py), then a fine pass of the top bracket."""
    worst: list[tuple[int, float]] = []
    for low, high in zip(rates, rates[1:]):
        first = fine_rates(Bracket(low, high))
        above = [r for r in rates if first and r > max(first)]
        if not above:
            continue
        passes = [(len(first), max(first)), (len(above), max(above))]
        top = fine_rates(Bracket(above[-2] if len(above) > 1 else max(first), above[-1]))
        if top and MAX_PASSES > 2:
            passes.append((len(top), max(top)))
        if _weight(passes) > _weight(worst):
            worst = passes
    return worst


def _weight(passes: list[tuple[int, float]]) -> float:
    """What a run of these passes writes grows with its requests: levels × rate."""
    return sum(n * top for n, top in passes)


def why_not_refined(knee: Knee, requested: bool, skipped: str | None) -> str | None:
    """Why the knee is still wider than KNEE_RESOLUTION; None when it is localised or the mode never collapsed.

    requested: REFINE of the run; skipped: why bench did not refine (params.json `refine_skipped`)."""
    interval = knee.interval
    if interval is None or interval.localised():
        return None
    if not requested:
        return skipped or "REFINE=0: the knee is placed on the coarse levels only"
    if not interval.healthy:
        return "the first level was already unhealthy: there is no healthy rate to refine from"
    if skipped:
        return skipped
    if not knee.passes:
        return "no refinement pass was run"
    passes = f"{len(knee.passes)} pass{'es' if len(knee.passes) > 1 else ''}"
    if interval.narrow():
        return (
            f"after {passes} its first unhealthy rate, {interval.unhealthy:,.1f} rps, was measured unhealthy once "
            f"only: the knee is not confirmed"
        )
    return f"after {passes} the bracket is still {interval.width_ratio:.0%} of its lower rate wide"
