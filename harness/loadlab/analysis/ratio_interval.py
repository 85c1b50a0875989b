"""A ratio of two knees with the interval the knees' brackets allow, and how it is said: the one place the lab
turns "virtual over platform" (or over reactive, or over one pool of a sweep) into a figure with its uncertainty.

A knee is known only to its bracket: the last healthy rate below it and the first unhealthy rate above it (summary
.json's `knee_interval_rps`). A mode that held the top of the stairs (or whose unhealthy level did not reproduce)
has no knee: it lies somewhere above the highest rate measured healthy, an interval with no upper end. So the ratio
of two knees lies between the numerator's low end over the divisor's high end and the numerator's high end over the
divisor's low end; a side with no end leaves the ratio's interval open on that side, and the ratio is then a bound
(`≥ 2.90×`), said as one wherever it is shown, never as a closed interval, and by the end its brackets carry, never
by the point the last healthy levels give (summary.json's value), which bounds nothing.

A closed interval whose high end is more than ROUGH_FACTOR times its low end is "rough": the stairs were too coarse
to tell the ratio, and the words say what narrows it.
"""

from __future__ import annotations

from collections.abc import Sequence

# A ratio whose interval spans more than this factor (high end / low end) is called rough, in words, with what to do.
ROUGH_FACTOR = 2.0
DIGITS = 2  # a ratio and its interval's ends are written to two decimals, as summary.json gives them

KneeRange = tuple[float, float | None]  # (low, high): where a knee lies; high None: no upper end (no knee reached)
Interval = list[float | None]  # [low, high] as summary.json writes it; None on a side with no end


def knee_range(
    sustained: float | None, collapsed: bool | None, bracket: Sequence[float | None] | None
) -> KneeRange | None:
    """Where a mode's knee lies: its bracket when it collapsed, above its highest healthy rate when it did not;
    None when nothing places it (no healthy level)."""
    if collapsed:
        if not bracket or not bracket[0] or bracket[1] is None:
            return None
        return float(bracket[0]), float(bracket[1])
    return (float(sustained), None) if sustained else None


def interval(numerator: KneeRange | None, divisor: KneeRange | None) -> Interval | None:
    """[low, high] of numerator / divisor over every pair of knees the brackets allow; None on an open side (low
    None: the divisor's knee has no upper end; high None: the numerator's has none). None when either is unknown."""
    if numerator is None or divisor is None:
        return None
    (n_lo, n_hi), (d_lo, d_hi) = numerator, divisor
    low = None if d_hi is None else round(n_lo / d_hi, DIGITS)
    high = None if n_hi is None else round(n_hi / d_lo, DIGITS)
    if low is None and high is None:
        return None  # neither knee was reached: no ratio (summary/verdicts/ratio.py says why)
    return [low, high]


def bound_of(span: Sequence[float | None] | None) -> str | None:
    """`lower` when the interval has no upper end, `upper` when it has no lower end, None when closed."""
    if not span:
        return None
    if span[1] is None:
        return "lower"
    return "upper" if span[0] is None else None


def rough(span: Sequence[float | None] | None, short: bool = False) -> str | None:
    """The words for a closed interval wider than ROUGH_FACTOR, with what narrows it (short: the word and why only,
    where the full words are said nearby); None otherwise (a bound is said as a bound, not as rough)."""
    low, high = (span[0], span[1]) if span else (None, None)
    if low is None or high is None or not low:
        return None
    if high <= ROUGH_FACTOR * low:
        return None
    if short:
        return f"rough: more than a factor of {ROUGH_FACTOR:g} between its ends"
    return (
        f"rough: the knees' brackets allow anything from {low:.2f}× to {high:.2f}×, more than a factor of "
        f"{ROUGH_FACTOR:g} apart; localise the knees (REFINE=1) or climb in smaller steps (more STEPS)"
    )


def text(value: float | None, span: Sequence[float | None] | None, kind: str | None = None) -> str:
    """`2.12× (2.03–2.42)`; a bound as far as its brackets carry it, `≥ 2.90×` / `≤ 1.08×` (figure()); a summary
    written before intervals (kind: its `…_bound`) says the point for what it is; "—" without a ratio."""
    if value is None:
        return "—"
    kind = bound_of(span) or kind
    if not span:
        if kind:
            return f"{value:.{DIGITS}f}× at the last healthy levels (a {kind} bound's point: no interval to carry it)"
        return f"{value:.{DIGITS}f}×"
    if kind:
        return figure(value, span)
    low, high = span
    return f"{value:.{DIGITS}f}× ({low:.{DIGITS}f}–{high:.{DIGITS}f})"


def figure(value: float, span: Sequence[float | None] | None) -> str:
    """The figure a reader may quote: the point of a closed interval, the interval's end for a bound (`≥ 2.90×`).
    A bound's point (the ratio of the last healthy levels, summary.json's value) is no bound: with platform's knee
    between 25 and 70 rps and virtual holding 250, 250 / 25 = 10× is what platform's last healthy level gives, but
    its knee may lie up to 70, so the data carry only 250 / 70 = 3.57×."""
    sign = {"lower": "≥ ", "upper": "≤ "}.get(bound_of(span) or "", "")
    return f"{sign}{quotable(value, span):.{DIGITS}f}×"


def quotable(value: float, span: Sequence[float | None] | None) -> float:
    """The number figure() writes: the point of a closed interval (or of none), the end a bound's brackets carry."""
    kind = bound_of(span)
    low, high = (span[0], span[1]) if span else (None, None)
    if kind == "lower" and low is not None:
        return float(low)
    if kind == "upper" and high is not None:
        return float(high)
    return value
