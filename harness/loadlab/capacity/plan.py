"""`make plan`: a run's measured costs → each mode's knee on a named host and, for RPS=, the hosts a target rate
takes → plan.json in the run folder. Refused in one line (exit 2): a bad parameter, a folder without summary.json,
a run with no valid mode, a run too rough to plan from (no valid mode whose service CPU could be fitted)."""

from __future__ import annotations

import json
from pathlib import Path

from loadlab.analysis.prediction import interval_list
from loadlab.capacity import host_knees, hostspec, instances, run_figures, sizing
from loadlab.capacity.host_knees import HostKnee
from loadlab.capacity.hostspec import PlanError
from loadlab.core.errors import LoadlabError

PLAN_JSON = "plan.json"


def plan(run_dir: Path, env: dict[str, str]) -> dict[str, object]:
    """The plan as plan.json holds it; PlanError before anything is written."""
    table = instances.read()
    rps = hostspec.target_rps(env)
    shown = env.get("RUN") or str(run_dir)
    try:
        run = run_figures.read(run_dir)
    except (OSError, ValueError):
        raise PlanError(
            f"RUN={shown} has no readable summary.json; allowed: a finished run folder (make report RUN=… rebuilds it)"
        ) from None
    host = hostspec.host(env, table, run.machine_cores, run.machine_memory_gb, run.machine)
    valid = run.valid_modes()
    if not valid:
        why = "; ".join(f"{m.label}: {m.invalid_reasons[0] if m.invalid_reasons else 'invalid'}" for m in run.modes)
        raise PlanError(f"RUN={shown} has no valid mode to plan from ({why or 'no mode measured'})")
    on_this_host = {m.label: host_knees.on_host(m, host) for m in valid}
    if all(
        host_knees.cpu_limit(m, host) is None and k.cpu_fills_host is None for m, k in zip(valid, on_this_host.values())
    ):
        raise PlanError(
            f"RUN={shown} is too rough to plan from: no valid mode's service CPU per request could be fitted (fewer "
            "than two healthy levels with CPU samples, or rates too close together); run more levels below the knee"
        )
    family = host.instance.name.split(".")[0] if host.instance else sizing.FAMILY
    return {
        "run_id": run.run_id,
        "measured_on": run.machine + (f"; {run.split.describe()}" if run.split else ""),
        "host": {
            "name": host.name,
            "cores": host.cores,
            "memory_gb": host.memory_gb,
            "instance": host.instance.name if host.instance else None,
            "usd_hour": host.instance.usd_hour if host.instance else None,
        },
        "assumes": (
            "the service alone on the host's cores (the delay-service and the injectors on hosts of their own), "
            "half of its memory for the service, a stock Linux thread limit "
            f"({host_knees.HOST_THREADS_LIMIT:,} threads a process), cores of the speed measured here"
        ),
        "modes": {label: mode_entry(k, m) for (label, k), m in zip(on_this_host.items(), valid)},
        "not_planned": {m.label: list(m.invalid_reasons) for m in run.modes if not m.valid},
        "target": None if rps is None else sizing.for_target(run, rps, table, family),
        "prices": table.price_note(),
    }


def mode_entry(k: HostKnee, m: run_figures.ModeFigures) -> dict[str, object]:
    first = k.first
    # A knee with no upper end is only a lower bound (interval_rps [low, null]): no point is given as the knee.
    return {
        "predicted_knee_rps": None if first is None or not first.bounded else round(first.rps),
        "interval_rps": None if first is None else interval_list(first.interval),
        "limit_met_first": None if first is None else first.predicted_by,
        "formula": None if first is None else first.formula,
        "not_a_figure": k.not_a_figure(),
        "rough": k.rough(),
        "limits": [p.as_dict() for p in k.limits],
        "measured_here_rps": m.sustained_rps,
    }


def write(run_dir: Path, env: dict[str, str]) -> dict[str, object]:
    result = plan(run_dir, env)
    (run_dir / PLAN_JSON).write_text(json.dumps(result, indent=2) + "\n")
    return result


def resolve_run(raw: str) -> Path:
    """RUN= (default results/latest) as a folder; PlanError naming RUN when there is none."""
    path = Path(raw or "results/latest")
    if not path.is_dir():
        raise PlanError(f"RUN={raw or 'results/latest'} is not a run folder; allowed: results/<run-id>")
    return path.resolve()


__all__ = ["PLAN_JSON", "LoadlabError", "PlanError", "plan", "resolve_run", "write"]
