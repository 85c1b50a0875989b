"""A per-second CSV the summary wrote (server.csv, percentiles.csv) as columns of numbers, None where blank."""

from __future__ import annotations

import csv
from pathlib import Path


def read_series(path: Path) -> dict[str, list]:
    """Column name -> its values; {} when the file is missing (an older run, a mode that never ran)."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError:
        return {}
    columns = rows[0].keys() if rows else []
    return {c: [_number(r.get(c)) for r in rows] for c in columns}


def _number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None
