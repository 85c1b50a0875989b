"""A level and a bound as a person reads them: levels by their number (levels.level_number, counted from 1), rates
without needless decimals, the lower bound a pass gives when its only unhealthy levels were set aside (knee.py places
the knee; this says it)."""

from __future__ import annotations

from loadlab.analysis.levels import Level, level_number

COARSE = "coarse"


def level_words(level: Level, pass_name: str = COARSE) -> str:
    """A level as a person reads it: the coarse stairs' counted from 1, a fine pass's by its rate."""
    if pass_name == COARSE:
        return f"level {level_number(level.position)} ({rate_words(level.target_rps)} rps)"
    return f"{pass_name}'s level at {rate_words(level.target_rps)} rps"


def rate_words(rate: float) -> str:
    return f"{rate:,.0f}" if float(rate).is_integer() else f"{rate:,.1f}"


def bound_words(held: float, above: list[tuple[Level, bool, str]], pass_name: str) -> str:
    """The lower bound a pass gives (knee.bound_of places it), in words: `held` the highest rate its trusted levels
    held, `above` the levels set aside above it (the level, healthy as measured, why it was set aside)."""
    # each named with the kind of saturation only: the full sentences are the mode's set-aside notes
    named = "; ".join(
        f"{level_words(level, pass_name)}{'' if healthy else ', unhealthy as measured'}: {why.split(':')[0]}"
        for level, healthy, why in above
    )
    return (
        f"healthy up to {rate_words(held)} rps on the levels that can be trusted, so the knee lies at or above "
        f"{rate_words(held)} rps (a lower bound, not a collapse): the levels above it were set aside, the instrument "
        f"saturated there ({named})"
    )


def first_level_transient(first: Level, held: Level, why: list[str]) -> str:
    """A coarse pass's unhealthy first level that the next, higher one held (knee.judge), in words."""
    return (
        f"the first level, {first.target_rps:,.1f} rps, was unhealthy ({'; '.join(why)}) but a higher rate measured "
        f"after it, {held.target_rps:,.1f} rps, was healthy: it did not reproduce — the service was still growing "
        "into the load (the warm-up's end, a JIT still compiling), not the knee"
    )
