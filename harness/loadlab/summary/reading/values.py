"""Reading a raw value: numbers from CSV cells and JSON, where blanks, text and the samplers' -1 mean "unknown"."""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path
from typing import SupportsFloat

# What float() reads: text, or a number of any kind (the checks try the common ones first).
NUMBER_LIKE = (str, int, float, SupportsFloat)


def as_float(value: object) -> float | None:
    """A number, or None for blanks, text and the -1 the samplers write for 'unavailable'."""
    if value is None or isinstance(value, bool) or not isinstance(value, NUMBER_LIKE):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) and number >= 0 else None


def as_int(value: object) -> int:
    number = as_float(value)
    return int(number) if number is not None else 0


def int_or_none(value: object) -> int | None:
    if not isinstance(value, NUMBER_LIKE):
        return None
    try:
        return int(float(value))
    except (TypeError, ValueError):
        return None


def max_known(values: Iterable[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return max(known) if known else None


def natural(path: Path) -> tuple[str, int]:
    head, _, tail = path.name.rpartition("-")
    return (head, int(tail)) if tail.isdigit() else (path.name, -1)
