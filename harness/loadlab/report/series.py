"""A per-second CSV the summary wrote (server.csv, percentiles.csv) as columns of numbers, None where blank."""

from __future__ import annotations

import csv
import math
from collections.abc import Iterable
from pathlib import Path


def read_series(path: Path) -> dict[str, list[float | None]]:
    """Column name -> its values; {} when the file is missing (an older run, a mode that never ran)."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError:
        return {}
    columns = rows[0].keys() if rows else []
    return {c: [_number(r.get(c)) for r in rows] for c in columns}


def gaps(values: Iterable[float | None]) -> list[float]:
    """The values as a chart draws them: NaN where one is None, a gap in its line (matplotlib draws None so too, but
    its types take numbers only)."""
    return [math.nan if v is None else v for v in values]


def _number(text: str | None) -> float | None:
    if text is None:  # a short row: csv.DictReader gives its missing columns None
        return None
    try:
        return float(text)
    except ValueError:
        return None
