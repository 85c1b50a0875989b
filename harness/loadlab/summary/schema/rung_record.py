"""One rung of a mode's `ladder` in summary.json (summary/verdicts/ladder_record.py fills it): the names
shared/CONTRACT.md fixes (turn 7), and the words that say its verdict."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from loadlab.summary.schema.record_fields import Fields, Interval, Key


@dataclass(frozen=True, kw_only=True)
class RungRecord(Fields):
    """One rung in summary.json's `ladder` (the names shared/CONTRACT.md fixes, turn 7)."""

    rung: int | None
    limit: str | None
    setting: str | None
    from_value: Annotated[float | None, Key("from")]  # `from`: no Python name
    to: float | None
    run: str | None
    predicted_interval_rps: Interval | None
    knee_interval_rps: Interval | None
    sustained_rps: float | None
    verdict: str | None
    next_limit: str | None
    words: str | None
