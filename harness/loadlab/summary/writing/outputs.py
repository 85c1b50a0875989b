"""Writing the derived files: the contract's CSV columns; files are replaced, never half-written."""

from __future__ import annotations

import csv
import io
import math
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from loadlab.summary.writing import server_columns

TIMELINE_COLUMNS = ["second", "offered_rps", "ok", "ko", "p50_ms", "p95_ms", "p99_ms", "max_ms"]
SERVER_COLUMNS = server_columns.COLUMNS  # named in server_columns.py


def write_csv(path: Path, columns: list[str], rows: Iterable[Mapping[str, object]]) -> None:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([cell(row.get(c)) for c in columns])
    write_text(path, out.getvalue())


def write_text(path: Path, text: str) -> None:
    # Replace, not overwrite: a page open in a browser or a concurrent `make report` never sees half a file.
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        if not math.isfinite(value):
            return ""
        value = round(value, 1)
        return str(int(value)) if value.is_integer() else str(value)
    return str(value)
