"""A mode's `ladder` (LADDER=N): each rung bench climbed, as params.json recorded it (run/rungs.py: the limit, the
setting from → to, the rung's own run folder, or why it was not applied), judged from the rung's own summary.json
against the knee below it (analysis/rung.py). Re-judged at every `make report`, like every other verdict."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from loadlab.analysis import rung
from loadlab.summary.schema.record_fields import Interval
from loadlab.summary.schema.rung_record import RungRecord
from loadlab.summary.verdicts import records
from loadlab.summary.verdicts.records import ModeRecord, NoModes

LADDER_FOLDER = "ladder"
EVERY_MODE = "*"


def folder(label: str, k: int) -> str:
    """A rung's run folder, relative to the run's own."""
    return f"{LADDER_FOLDER}/{label}-rung-{k}"


def rung_mode(run_dir: Path, facts: Mapping[str, object], label: str) -> ModeRecord | None:
    """The rung's mode as its own summary.json gives it; None when the rung has no summary (it never ran, or died
    before writing one)."""
    where = facts.get("run")
    if not isinstance(where, str):
        return None
    try:
        summary = records.read(run_dir / where)
    except (OSError, ValueError, NoModes):
        return None
    return (summary.modes or {}).get(label)


def rungs(run_dir: Path, ladder: Sequence[Mapping[str, object]], label: str, mode: ModeRecord) -> list[RungRecord]:
    """The mode's rungs in order, each judged against the knee of the step below it (the stairs, then each rung)."""
    out: list[RungRecord] = []
    below = mode
    # "*": a ladder refused for the whole run (several JDKs or pool sizes, REPEAT, a ramp): said in every mode
    for facts in (f for f in ladder if f.get("mode") in (label, EVERY_MODE)):
        judged, now = judge_facts(run_dir, facts, label, below)
        out.append(judged)
        if now is None or judged.verdict not in rung.CLIMBS_ON:
            break
        below = now
    return out


def judge_facts(
    run_dir: Path, facts: Mapping[str, object], label: str, below: ModeRecord
) -> tuple[RungRecord, ModeRecord | None]:
    """One rung's record and its mode's record (None: not applied, or no summary)."""
    refused = _str(facts.get("not_applied"))
    if refused is not None:
        return _record(facts, verdict=rung.NOT_APPLIED, words=refused), None
    now = rung_mode(run_dir, facts, label)
    if now is None:
        stopped = _str(facts.get("stopped")) or "the rung's run wrote no summary"
        return _record(facts, words=f"{stopped}: the ladder stops here"), None
    judged = rung.judge(_pair(below.knee.interval_rps), below.sustained_rps or 0.0, figures(now, facts))
    record = _record(
        facts,
        predicted_interval_rps=now.predicted.interval_rps,
        knee_interval_rps=now.knee.interval_rps,
        sustained_rps=now.sustained_rps,
        verdict=judged.verdict,
        next_limit=now.limit.prescription.limit if now.limit.prescription is not None else None,
        words=judged.words,
    )
    return record, now


def _record(facts: Mapping[str, object], **judged: object) -> RungRecord:
    """The rung's facts as recorded, with what its judgment adds."""
    return RungRecord.from_mapping(
        {
            "rung": _int(facts.get("rung")),
            "limit": _str(facts.get("limit")),
            "setting": _str(facts.get("setting")),
            "from": _whole(_num(facts.get("from"))),
            "to": _whole(_num(facts.get("to"))),
            "run": _str(facts.get("run")),
            **judged,
        }
    )


def figures(now: ModeRecord, facts: Mapping[str, object]) -> rung.Figures:
    reasons = list(now.validity.invalid_reasons or [])
    if now.crashed is not None:
        reasons.append(f"{now.crashed.role} died")
    interval = now.predicted.interval_rps
    predicted: tuple[float, float | None] | None = None
    if interval and interval[0] is not None:
        predicted = (interval[0], interval[1])
    elif now.predicted.rps is not None:
        predicted = (float(now.predicted.rps), float(now.predicted.rps))
    return rung.Figures(
        valid=bool(now.validity.valid) and now.crashed is None,
        why_not_valid="; ".join(reasons) or None,
        sustained_rps=now.sustained_rps or 0.0,
        collapsed=bool(now.collapsed),
        knee=_pair(now.knee.interval_rps),
        predicted=predicted,
        top_rps=_num(facts.get("top_rps")) or 0.0,
        bound=now.knee.bound,
        agrees=now.predicted.agrees,
    )


def _pair(interval: Interval | None) -> tuple[float, float] | None:
    if not interval or interval[0] is None or interval[1] is None:
        return None
    return float(interval[0]), float(interval[1])


def _num(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _whole(value: float | None) -> float | int | None:
    """A size as summary.json writes a count: 200, not 200.0."""
    return int(value) if value is not None and value.is_integer() else value


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None
