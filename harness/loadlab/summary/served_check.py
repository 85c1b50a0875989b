"""The served-delay check of one mode (analysis/served.py) on the run's files: the delay-service's served log and
the distribution params.json recorded. Its own module, so judging.py adds its reasons in one line."""

from __future__ import annotations

from pathlib import Path

from loadlab.analysis import served
from loadlab.analysis.knee import Verdict
from loadlab.analysis.levels import Level
from loadlab.analysis.validity import ValidityContext, machine_saturated
from loadlab.core import downstream
from loadlab.core.runrecord import RunRecord


def run_folder(mode_dir: Path) -> Path:
    """The run folder above a mode's (`<run>/<mode>` or `<run>/rep-<k>/<mode>`): the one that holds params.json."""
    return next(
        (p for p in (mode_dir.parent, mode_dir.parent.parent) if (p / "params.json").is_file()), mode_dir.parent
    )


def count_injected(mode_dir: Path, run: RunRecord, levels: list[Level], t0: int | None) -> None:
    """Each level's served delay and injected failures (DOWNSTREAM_ERRORS/RESETS), from the delay-service's log,
    before the levels are judged: the health rule counts the injected failures as answered."""
    log = run.downstream.get("served_log")
    if not log:
        return
    path = run_folder(mode_dir) / str(log)
    served.record_served(levels, t0, served.read(path))
    if run.downstream.get("errors_pct") or run.downstream.get("resets_pct"):
        served.count_injected(levels, t0, served.injected_by_second(path))


def overview(run: RunRecord, params: dict) -> dict | None:
    """summary.json's `downstream`: the configured distribution in words and its figures, the injected failures;
    None for a run from before the delay-service recorded its policy."""
    if not run.downstream:
        return None
    dist = downstream.of_run(params, run.downstream)
    return {
        "distribution": dist.describe(),
        "configured_ms": {
            "mean": round(dist.mean_ms(), 1),
            **{f"p{p:g}": round(dist.quantile_ms(p / 100), 1) for p in served.SERVED_PERCENTILES},
        },
        "errors_pct": run.downstream.get("errors_pct") or 0,
        "resets_pct": run.downstream.get("resets_pct") or 0,
        "served_log": run.downstream.get("served_log"),
    }


def reasons(
    mode_dir: Path,
    run: RunRecord,
    params: dict,
    levels: list[Level],
    t0: int | None,
    verdict: Verdict,
    ctx: ValidityContext,
) -> list[str]:
    """Why the mode is invalid because the stand-in served slower than configured; [] when it kept to it (or the run
    has no served log). Judged as validity.py judges the delay-service's probe: up to and including the first
    unhealthy level, except where the shared machine itself was saturated (validity names the machine there, and a
    late stand-in is then its symptom, not a cause)."""
    log = run.downstream.get("served_log")
    if not log:
        return []
    end = len(levels) if verdict.first_unhealthy is None else verdict.first_unhealthy + 1
    judged = [lv for lv in levels[:end] if not machine_saturated(lv, ctx)]
    by_second = served.read(run_folder(mode_dir) / str(log))
    dist = downstream.of_run(params, run.downstream)
    return served.reasons(served.level_problems(judged, t0, by_second, dist))
