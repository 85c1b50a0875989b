"""LADDER=N: after the stairs, each mode's prescription applied and the mode measured again, rung after rung.

A rung is a run of its own in the run folder (`ladder/<mode>-rung-<k>/`: its params.json, summary.json and page),
one mode on short stairs from just below the rate the mode held to past the next limit's predicted knee, with the
prescription's setting. Its verdict (analysis/rung.py, through summary/ladder_record.py) says whether the knee moved
as predicted; the next rung lifts the limit the rung itself met. The ladder stops at N rungs, at a limit no setting
sizes (the CPU: `make plan` names the host; a lock: the code), at a prescription that cannot be applied, at a rung
that did not move or cannot be trusted, or at Ctrl-C — what was measured stays, in params.json's `ladder` and on the
page."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

from loadlab.analysis import rung
from loadlab.analysis.limit_settings import SETTINGS
from loadlab.core import param_limits, params
from loadlab.core.errors import ExitCode
from loadlab.core.param_parsers import ParamError
from loadlab.core.run_params import RunParams
from loadlab.run import console
from loadlab.summary import ladder_record
from loadlab.summary.records import ModeRecord, RunSummary

# A rung's stairs: from this share of the rate the mode held (healthy before, so healthy again with more room) to
# this multiple of the rate the next limit is predicted at, in RUNG_STEPS levels; REFINE then localises the knee.
START_SHARE = 0.9
PEAK_MULTIPLE = 1.4
RUNG_STEPS = 5
# An APP's Tomcat pool is the lab's PLATFORM_THREADS, which the harness passes to the jar itself.
APP_PROPERTY_PARAMETER = {s.app: s.parameter for s in SETTINGS.values() if s.app and s.parameter == "PLATFORM_THREADS"}

Bench = Callable[[RunParams, Path], int]


def climb(run_dir: Path, values: RunParams, result: RunSummary, bench: Bench) -> ExitCode:
    """Every mode's ladder, mode after mode; INTERRUPTED when Ctrl-C stopped a rung (the rest is not climbed)."""
    if len(values.jdks) > 1 or values.single_pool is None or values.repeat > 1 or values.profile != param_limits.STAIRS:
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
        if _climb_mode(run_dir, values, label, mode, bench) == ExitCode.INTERRUPTED:
            return ExitCode.INTERRUPTED
    return ExitCode.OK


def _climb_mode(run_dir: Path, values: RunParams, label: str, mode: ModeRecord, bench: Bench) -> ExitCode:
    below, base = mode, values
    for k in range(1, (values.ladder or 0) + 1):
        facts: dict[str, object] = {"mode": label, "rung": k}
        p = below.prescription
        if not below.valid:
            why = "the run below it cannot be trusted (" + "; ".join(below.invalid_reasons or ["invalid"]) + ")"
            _record(run_dir, {**facts, "not_applied": why})
            console.step(f"rung {k} ({label}): not climbed: {why}")
            return ExitCode.OK
        if p is None or not p.applicable or p.to is None:
            why = (p.words or p.reason or "nothing to lift") if p is not None else "no prescription: no limit was named"
            _record(run_dir, {**facts, "limit": p.limit if p else None, "not_applied": why})
            console.step(f"rung {k} ({label}): not climbed: {why}")
            return ExitCode.OK
        facts.update({"limit": p.limit, "setting": p.setting, "from": p.current, "to": p.to})
        planned = rung_values(base, label, below, p.setting or "", p.to, p.rate_rps, run_dir)
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
        code = bench(planned, run_dir / folder)
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


def rung_values(
    values: RunParams, label: str, below: ModeRecord, setting: str, to: int, rate: float | None, run_dir: Path
) -> RunParams | str:
    """The rung's parameters, checked as any run's; or why it cannot run."""
    env = _env(values)
    parameter = APP_PROPERTY_PARAMETER.get(setting, setting) if values.app else setting
    if parameter in params.BY_NAME:
        env[parameter] = str(to)
    elif values.app and "." in setting and not setting.startswith("-") and " " not in setting:
        env["APP_ARGS"] = f"{values.app_args} --{setting}={to}".strip()  # a Spring property: on the jar's command line
    else:
        return f"{setting} is not a setting the lab can apply (set it by hand in production)"
    held = below.sustained_rps or 0.0
    start = max(1, math.floor(held * START_SHARE))
    peak = max(math.ceil((rate or held * 1.5) * PEAK_MULTIPLE), start + RUNG_STEPS)
    env.update(
        {
            "MODES": label,  # one JDK and one pool: the label is the thread mode
            "START_RPS": str(start),
            "PEAK_RPS": str(peak),
            "STEPS": str(RUNG_STEPS),
            "REPEAT": "1",
            "LADDER": "",
            "RESULTS_DIR": str(run_dir / ladder_record.LADDER_FOLDER),
        }
    )
    try:
        return params.parse(env)
    except ParamError as e:
        return f"the rung's parameters were refused: {e}"


def _env(values: RunParams) -> dict[str, str]:
    """The run's parameters as the environment would give them: what params.parse reads back."""
    env: dict[str, str] = {}
    for name, value in values.to_json().items():
        if isinstance(value, list):
            env[name] = " ".join(str(v) for v in value)
        elif value is None:
            env[name] = ""
        else:
            env[name] = str(value)
    return env


def _record(run_dir: Path, facts: dict[str, object]) -> None:
    """The rung in the run's params.json, at once: a rung cut short keeps the ones before it."""
    path = run_dir / "params.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc.setdefault("ladder", []).append(facts)
    path.write_text(json.dumps(doc, indent=2) + "\n")


def _n(value: float | None) -> str:
    return "?" if value is None else f"{value:,.0f}"
