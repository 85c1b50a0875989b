"""docs/studies/answers.json: what `make answers` measured for each row of the README's table, read from each row's
run folder by summary/verdicts/records.read (the one reader of a written summary.json), merged with the rows measured
before.

Per row and mode: the median sustained rate with its min–max over the repetitions, each repetition's knee interval,
the limit met first; the ratio with its interval and bound; the run folder, the date, the machine, the seconds taken;
why a row failed or was skipped. Repetitions whose knees leave no rate common to all disagree beyond their intervals:
the row says so in words (`spread`) rather than quoting one run.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from loadlab.analysis import ratio_interval
from loadlab.core.answer_rows import ANSWERS_JSON, ROWS_FILE, Row
from loadlab.core.modelabel import ModeLabel
from loadlab.core.repo import REPO
from loadlab.report import formats
from loadlab.summary.verdicts import records
from loadlab.summary.verdicts.records import ModeRecord, RunSummary

FORMAT = 1


@dataclass(frozen=True)
class Outcome:
    """How one row's `make bench` went: what the runner saw, before its run folder is read."""

    row: Row
    repeat: int
    status: str  # `measured` (exit 0), `failed` (any other exit, or no run folder), `skipped` (cannot run here)
    date: str  # UTC, when the row began
    seconds: float
    machine: dict[str, object] = field(default_factory=dict)  # cores, the load average before the row began
    exit_code: int | None = None
    run_folder: Path | None = None
    reason: str | None = None


def _knee_words(sustained: float | None, collapsed: bool | None, bracket: Sequence[float | None] | None) -> str:
    """A repetition's knee as the lab says it: a bracket, a bound (`≥ x`, held) or, with no healthy level, in words."""
    if collapsed and bracket:
        return formats.bracket_text(bracket).replace(" – ", "–")
    return f"≥ {formats.num(sustained)} (held)" if sustained else "no healthy level"


def _disagree(knees: list[ratio_interval.KneeRange | None]) -> bool:
    """No rate lies in every repetition's range: they disagree beyond their intervals."""
    placed = [k for k in knees if k is not None]
    if len(placed) < 2:
        return False
    highs = [hi for _, hi in placed if hi is not None]
    return bool(highs) and max(lo for lo, _ in placed) > min(highs)


def mode_entry(summary: RunSummary, label: str, mode: ModeRecord) -> dict[str, object]:
    spread = summary.repeats.modes.get(label) if summary.repeats and summary.repeats.modes else None
    invalid: list[str] = []
    flagged: list[str] = []
    if spread is not None and spread.repetitions:
        # an invalid repetition carries no knee (the median is of the valid ones): it is named, with why, apart
        valid = [r for r in spread.repetitions if r.valid is not False]
        dropped = [r for r in spread.repetitions if r.valid is False]
        invalid = [f"repetition {r.repetition}: {'; '.join(r.invalid_reasons or []) or 'invalid'}" for r in dropped]
        rows = [(r.sustained_rps, r.collapsed, r.knee_interval_rps) for r in valid]
        flagged = [f"invalid (repetition {r.repetition})" for r in dropped]
        low, mid, high = spread.min, spread.median, spread.max
    else:
        rows = [(mode.sustained_rps, mode.collapsed, mode.knee.interval_rps)]
        low = mid = high = mode.sustained_rps
    disagree = _disagree([ratio_interval.knee_range(s, c, b) for s, c, b in rows])
    knees = [_knee_words(s, c, b) for s, c, b in rows] + flagged
    return {
        "sustained_rps": {"median": mid, "min": low, "max": high},
        "collapsed": mode.collapsed,
        "knee_interval_rps": [b for _, _, b in rows],
        "knees": knees,
        "limit_met_first": mode.limit.met_first,
        "valid": mode.validity.valid,
        "invalid_reasons": mode.validity.invalid_reasons or [],
        "invalid_repetitions": invalid,
        "repetitions": len(rows),
        "disagree": disagree,
        "spread": (
            f"the {len(rows)} repetitions disagree beyond their intervals: knees {', '.join(knees)}; sustained "
            f"{formats.num(low)}–{formats.num(high)} rps, median {formats.num(mid)}"
            if disagree
            else None
        ),
    }


def ratio_entry(summary: RunSummary) -> dict[str, object]:
    value, span = summary.virtual_over_platform, summary.virtual_over_platform_interval
    spread = summary.repeats.ratio if summary.repeats else None
    return {
        "value": value,
        "interval": span,
        "bound": summary.virtual_over_platform_bound,
        "basis": summary.virtual_over_platform_basis,
        "reason": summary.virtual_over_platform_reason,
        "text": ratio_interval.text(value, span, summary.virtual_over_platform_bound),
        # with reactive in MODES: said in answers.md's detail, as the README's table has no column for it
        "virtual_over_reactive": (
            ratio_interval.text(
                summary.virtual_over_reactive,
                summary.virtual_over_reactive_interval,
                summary.virtual_over_reactive_bound,
            )
            if summary.virtual_over_reactive is not None
            else None
        ),
        "repeats": (
            {"median": spread.median, "min": spread.min, "max": spread.max, "bounds": spread.bounds or {}}
            if spread is not None
            else None
        ),
    }


def _folder_text(folder: Path) -> str:
    return str(folder.relative_to(REPO)) if folder.is_relative_to(REPO) else str(folder)


def row_entry(outcome: Outcome) -> dict[str, object]:
    """One row of answers.json: the runner's outcome and, when its run folder has a summary.json, its figures."""
    row = outcome.row
    entry: dict[str, object] = {
        "id": row.id,
        "workload": row.workload,
        "command": row.command(outcome.repeat),
        "params": row.params,
        "repeat": outcome.repeat,
        "status": outcome.status,
        "exit_code": outcome.exit_code,
        "reason": outcome.reason,
        "date": outcome.date,
        "seconds": round(outcome.seconds, 1),
        "machine": outcome.machine,
        "run_id": None,
        "run_folder": None,
        "modes": {},
        "ratio": None,
    }
    if outcome.run_folder is None:
        return entry
    entry |= {"run_id": outcome.run_folder.name, "run_folder": _folder_text(outcome.run_folder)}
    try:
        summary = records.read(outcome.run_folder)
    except (OSError, ValueError) as e:
        entry["reason"] = "; ".join(filter(None, [outcome.reason, f"its summary.json could not be read: {e}"]))
        return entry
    entry["modes"] = {label: mode_entry(summary, label, m) for label, m in summary.modes.items()}
    entry["ratio"] = ratio_entry(summary)
    return entry


def platform_labels(modes: dict[str, object]) -> list[str]:
    """The columns the README's platform cell shows: one, or each pool of a sweep."""
    return [m for m in modes if ModeLabel.parse(m).mode == "platform"]


def merged(
    entries: Sequence[dict[str, object]], before: dict[str, object] | None, rows: Sequence[Row]
) -> dict[str, object]:
    """answers.json: the rows just measured over those measured before, in the rows file's order."""
    earlier = before.get("rows") if before else None
    by_id: dict[str, object] = {}
    if isinstance(earlier, list):
        by_id = {str(e["id"]): e for e in earlier if isinstance(e, dict)}
    by_id |= {str(e["id"]): e for e in entries}
    return {
        "format": FORMAT,
        "generated_by": "make answers",
        "rows_file": str(ROWS_FILE.relative_to(REPO)),
        "rows": [by_id[r.id] for r in rows if r.id in by_id],
    }


def read(path: Path = ANSWERS_JSON) -> dict[str, object] | None:
    """answers.json as written, or None before `make answers` first wrote it."""
    if not path.is_file():
        return None
    values = json.loads(path.read_text(encoding="utf-8"))
    return values if isinstance(values, dict) else None


def write(answers: dict[str, object], path: Path = ANSWERS_JSON) -> None:
    tmp = path.with_suffix(".json.tmp")  # replaced whole: a Ctrl-C never leaves half a file
    tmp.write_text(json.dumps(answers, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)
