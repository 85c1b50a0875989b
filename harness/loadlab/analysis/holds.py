"""How long one request holds a slot (a thread, a connection, a carrier): the value a model divides by, with the
shortest and longest the run's evidence allows; for a SCENARIO mix, the kinds' weighted mean and one kind's share."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HoldTime:
    """How long one request holds a slot (a thread, a connection, a carrier), in ms: the value the formula uses,
    and the shortest and longest the run's own evidence allows."""

    ms: float
    source: str  # e.g. "baseline p50"
    shortest_ms: float
    longest_ms: float
    # How many healthy levels the shortest and longest were read at, and their OK rates (lowest, highest): one level
    # is said in words ("from one level only"); None: not read at a level (DELAY_MS, a setting).
    levels: int | None = None
    measured_on: tuple[float, float] | None = None


@dataclass(frozen=True)
class LevelHold:
    """What one healthy level says of how long its requests held a thread or a connection: its p50 (the formula's
    kind of value), its mean as the client waited (which holds the tail) and the service's own downstream call."""

    ok_rps: float
    p50_ms: float
    mean_ms: float | None = None
    downstream_ms: float | None = None


@dataclass(frozen=True)
class KindHold:
    """One kind of a SCENARIO mix: its share of the requests (0..1) and how long one of its requests holds a thread,
    read on its own histograms (summary/judge/kinds.py) at the mix's healthy levels."""

    name: str
    share: float
    hold: HoldTime


def weighted_hold(kinds: tuple[KindHold, ...]) -> HoldTime:
    """A mix's request holds a thread for the kinds' weighted mean: Σ wᵢ·tᵢ, between the weighted shortest and the
    weighted longest; the levels it stands on are the fewest any kind was read at."""
    shares = sum(k.share for k in kinds) or 1.0
    ms = sum(k.share * k.hold.ms for k in kinds) / shares
    parts = ", ".join(f"{k.share / shares:.0%} {k.name} {said_ms(k.hold.ms)}" for k in kinds)
    counts = [k.hold.levels for k in kinds if k.hold.levels is not None]
    rates = [k.hold.measured_on for k in kinds if k.hold.measured_on]
    return HoldTime(
        ms,
        f"weighted mean hold ({parts})",
        sum(k.share * k.hold.shortest_ms for k in kinds) / shares,
        sum(k.share * k.hold.longest_ms for k in kinds) / shares,
        min(counts) if counts else None,
        (min(r[0] for r in rates), max(r[1] for r in rates)) if rates else None,
    )


def share_hold(kind: KindHold) -> HoldTime:
    """What one kind's share holds per request of the whole mix: w · t (its limit is reached by that share only)."""
    h = kind.hold
    return HoldTime(
        kind.share * h.ms,
        f"{kind.share:.0%} of requests {kind.name} × {said_ms(h.ms)}",
        kind.share * h.shortest_ms,
        kind.share * h.longest_ms,
        h.levels,
        h.measured_on,
    )


# Below this a hold time is written in milliseconds with three significant digits: in seconds to three decimals, an
# app's 0.0225 ms connection time read "0.000 s", a division by zero on the page.
MS_BELOW = 10.0


def said_ms(ms: float) -> str:
    return f"{ms:.3g} ms" if ms < MS_BELOW else f"{ms / 1000:.3f} s"
