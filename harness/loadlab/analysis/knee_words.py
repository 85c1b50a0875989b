"""A level and a bound as a person reads them: levels counted from 1, rates without needless decimals, the lower
bound a pass gives when its only unhealthy levels were set aside (knee.py places the knee; this says it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loadlab.analysis.gc_bound import counted_with_the_crash

if TYPE_CHECKING:  # words only: no level model or verdict is built here
    from loadlab.analysis.knee import Verdict
    from loadlab.analysis.levels import Level

COARSE = "coarse"


def level_number(index: int) -> int:
    """A level's number as a person reads it, counted from 1 (summary.json's `index` and the raw files count from 0,
    the simulation's progress lines from 1)."""
    return index + 1


def level_words(level: Level, pass_name: str = COARSE) -> str:
    """A level as a person reads it: the coarse stairs' counted from 1, a fine pass's by its rate."""
    if pass_name == COARSE:
        return f"level {level_number(level.index)} ({rate_words(level.target_rps)} rps)"
    return f"{pass_name}'s level at {rate_words(level.target_rps)} rps"


def rate_words(rate: float) -> str:
    return f"{rate:,.0f}" if float(rate).is_integer() else f"{rate:,.1f}"


def bound_of(levels: list[Level], verdict: Verdict, held: float, pass_name: str) -> tuple[str | None, float | None]:
    """(the bound in words, the lowest rate set aside unhealthy above it) when no trusted level of the pass was
    unhealthy but some above the highest rate held were set aside; (None, None) otherwise. A level set aside is
    never the service's collapse: the answer is what the trusted levels carry, the highest rate they held."""
    # a level counted with a crash is no bound either: the crash is the mode's verdict (gc_bound.py)
    aside = [(i, why) for i, why in sorted(verdict.set_aside.items()) if not counted_with_the_crash(why)]
    above = [(i, why) for i, why in aside if levels[i].target_rps > held]
    # nothing trusted held (the mode is invalid: validity.too_few_levels says why), or a knee was placed: no bound
    if verdict.first_unhealthy is not None or not above or not held:
        return None, None
    unhealthy = [levels[i].target_rps for i, _ in above if not verdict.health[i][0]]
    # each named with the kind of saturation only: the full sentences are the mode's set-aside notes
    named = "; ".join(
        f"{level_words(levels[i], pass_name)}{'' if verdict.health[i][0] else ', unhealthy as measured'}: "
        f"{why.split(':')[0]}"
        for i, why in above
    )
    return (
        f"healthy up to {rate_words(held)} rps on the levels that can be trusted, so the knee lies at or above "
        f"{rate_words(held)} rps (a lower bound, not a collapse): the levels above it were set aside, the instrument "
        f"saturated there ({named})",
        min(unhealthy, default=None),
    )


def first_level_transient(first: Level, held: Level, why: list[str]) -> str:
    """A coarse pass's unhealthy first level that the next, higher one held (knee.judge), in words."""
    return (
        f"the first level, {first.target_rps:,.1f} rps, was unhealthy ({'; '.join(why)}) but a higher rate measured "
        f"after it, {held.target_rps:,.1f} rps, was healthy: it did not reproduce — the service was still growing "
        "into the load (the warm-up's end, a JIT still compiling), not the knee"
    )
