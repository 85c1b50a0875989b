"""LADDER=N: after the stairs, each mode's prescription applied and the mode measured again, rung after rung.

A rung is a run of its own in the run folder (`ladder/<mode>-rung-<k>/`: its params.json, summary.json and page),
one mode on short stairs from just below the rate the mode held to past the next limit's predicted knee, with the
prescription's setting. Its verdict (analysis/rung.py, through summary/verdicts/ladder_record.py) says whether the knee
moved as predicted; the next rung lifts the limit the rung itself met. The ladder stops at N rungs, at a limit no
setting sizes (the CPU: `make plan` names the host; a lock: the code), at a prescription that cannot be applied, at a
rung that did not move or cannot be trusted, or at Ctrl-C — what was measured stays, in params.json's `ladder` and on
the page."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from loadlab.analysis import rung
from loadlab.analysis.limit_settings import SETTINGS
from loadlab.core.errors import ExitCode
from loadlab.core.rung_params import Rung
from loadlab.core.runplan import Stairs
from loadlab.run import console
from loadlab.summary.verdicts import ladder_record
from loadlab.summary.verdicts.records import ModeRecord, RunSummary

# An APP's Tomcat pool is the lab's PLATFORM_THREADS, which the harness passes to the jar itself.
APP_PROPERTY_PARAMETER = {s.app: s.parameter for s in SETTINGS.values() if s.app and s.parameter == "PLATFORM_THREADS"}

# A run's parameters, which the ladder hands on without reading more of them than the stairs it says it climbs: the
# run's own below the first rung, then each rung's (bench.py makes them with core/rung_params.rung_values).
P = TypeVar("P", bound=Stairs)


@dataclass(frozen=True)
class Ladder(Generic[P]):
    """LADDER=N on a run: its rungs a mode, whether its parameters allow one (core/rung_params.climbable), its own
    parameters, how a rung's are made from those below it (or why they cannot be), and the bench that runs one."""

    rungs: int
    climbable: bool
    base: P
    plan: Callable[[P, Rung], P | str]
    bench: Callable[[P, Path], int]


def climb(run_dir: Path, ladder: Ladder[P], result: RunSummary) -> ExitCode:
    """Every mode's ladder, mode after mode; INTERRUPTED when Ctrl-C stopped a rung (the rest is not climbed)."""
    if not ladder.climbable:
        _record(
            run_dir,
            {
                "mode": ladder_record.EVERY_MODE,
                "not_applied": "LADDER climbs one JDK, one platform pool, REPEAT=1 stairs",
            },
        )
        console.warn("LADDER not climbed: it needs one JDK, one PLATFORM_THREADS size, REPEAT=1 and PROFILE=stairs")
        return ExitCode.OK
    for label, mode in (result.modes or {}).items():
        if _climb_mode(run_dir, ladder, label, mode) == ExitCode.INTERRUPTED:
            return ExitCode.INTERRUPTED
    return ExitCode.OK


def _climb_mode(run_dir: Path, ladder: Ladder[P], label: str, mode: ModeRecord) -> ExitCode:
    below, base = mode, ladder.base
    for k in range(1, ladder.rungs + 1):
        facts: dict[str, object] = {"mode": label, "rung": k}
        p = below.limit.prescription
        if not below.validity.valid:
            reasons = below.validity.invalid_reasons or ["invalid"]
            why = "the run below it cannot be trusted (" + "; ".join(reasons) + ")"
            _record(run_dir, {**facts, "not_applied": why})
            console.step(f"rung {k} ({label}): not climbed: {why}")
            return ExitCode.OK
        if p is None or not p.applicable or p.to is None:
            why = (p.words or p.reason or "nothing to lift") if p is not None else "no prescription: no limit was named"
            _record(run_dir, {**facts, "limit": p.limit if p else None, "not_applied": why})
            console.step(f"rung {k} ({label}): not climbed: {why}")
            return ExitCode.OK
        facts.update({"limit": p.limit, "setting": p.setting, "from": p.current, "to": p.to})
        planned = ladder.plan(base, rung_of(label, below, p.setting or "", p.to, p.rate_rps, run_dir))
        if isinstance(planned, str):
            _record(run_dir, {**facts, "not_applied": planned})
            console.step(f"rung {k} ({label}): not applied: {planned}")
            return ExitCode.OK
        folder = ladder_record.folder(label, k)
        facts.update({"run": folder, "top_rps": planned.peak_rps})
        console.step(
            f"rung {k} ({label}): {p.setting} {_n(p.current)} → {p.to}: stairs {planned.start_rps:,} → "
            f"{planned.peak_rps:,} rps in {planned.steps} levels ({folder})"
        )
        code = ladder.bench(planned, run_dir / folder)
        if code == ExitCode.INTERRUPTED:
            _record(run_dir, {**facts, "stopped": "interrupted (Ctrl-C)"})
            return ExitCode.INTERRUPTED
        _record(run_dir, facts)
        judged, now = ladder_record.judge_facts(run_dir, facts, label, below)
        console.step(f"rung {k} ({label}): {judged.verdict or 'no verdict'}: {judged.words}")
        if now is None or judged.verdict not in rung.CLIMBS_ON:
            return ExitCode.OK
        below, base = now, planned
    return ExitCode.OK


def rung_of(label: str, below: ModeRecord, setting: str, to: int, rate: float | None, run_dir: Path) -> Rung:
    """The rung above `below`: its setting to `to`, sized for `rate`; its run folder under the run's ladder/."""
    return Rung(
        label,
        setting,
        APP_PROPERTY_PARAMETER.get(setting),
        to,
        below.sustained_rps or 0.0,
        rate,
        run_dir / ladder_record.LADDER_FOLDER,
    )


def _record(run_dir: Path, facts: dict[str, object]) -> None:
    """The rung in the run's params.json, at once: a rung cut short keeps the ones before it."""
    path = run_dir / "params.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc.setdefault("ladder", []).append(facts)
    path.write_text(json.dumps(doc, indent=2) + "\n")


def _n(value: float | None) -> str:
    return "?" if value is None else f"{value:,.0f}"
