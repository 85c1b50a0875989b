"""One rung of a mode's `ladder` in summary.json (summary/verdicts/ladder_record.py fills it): the names
shared/CONTRACT.md fixes (turn 7), and the words that say its verdict."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from loadlab.summary.schema.record_fields import Fields, Interval, Key


@dataclass(frozen=True)
class RungRecord(Fields):
    """One rung in summary.json's `ladder` (the names shared/CONTRACT.md fixes, turn 7)."""

    rung: int | None = None
    limit: str | None = None
    setting: str | None = None
    from_value: Annotated[float | None, Key("from")] = None  # `from`: no Python name
    to: float | None = None
    run: str | None = None
    predicted_interval_rps: Interval | None = None
    knee_interval_rps: Interval | None = None
    sustained_rps: float | None = None
    verdict: str | None = None
    next_limit: str | None = None
    words: str | None = None
