"""The seconds after each level's step that are not its own (core/thresholds.py settle_seconds): which seconds of a
level are judged, as build_tables (seconds.py) assigns them; the simulation's LevelJudge leaves out the same ones."""

from __future__ import annotations

from collections.abc import Sequence

# (position, first whole second, end whole second (excluded)) of a level
Span = tuple[int, float, float]


def settled(levels: Sequence[Span], settle_s: int) -> list[Span]:
    """Each level from its first judged second: settle_s after its start, none left out of a level not longer."""
    return [(p, start + settle_s if end - start > settle_s else start, end) for p, start, end in levels]


def counts_to(position: int | None, s: int, spans: Sequence[Span]) -> int | None:
    """The level second s counts to: None while that level still settles after its step."""
    if position is None:
        return None
    start = next((first for p, first, _ in spans if p == position), None)
    return None if start is not None and s < start else position


def seconds_left_out(levels: Sequence[Span], spans: Sequence[Span]) -> dict[int, int]:
    """Each level's seconds left out, by position (Level.settle_s)."""
    return {p: int(start - first) for (p, first, _), (_, start, _) in zip(levels, spans)}
