"""The served-delay check of one mode (analysis/served.py) on the run's files: the delay-service's served log and
the distribution params.json recorded, read onto each level before the levels are judged (a level the stand-in served
late is set aside by analysis/validity.py, as any level whose instrument was saturated)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from loadlab.analysis import brownout_judge as brownout_check
from loadlab.analysis import served
from loadlab.analysis.levels import Level
from loadlab.core import fanout
from loadlab.core.downstream import Distribution
from loadlab.core.runrecord import RunRecord
from loadlab.core.summary_inputs import Brownout, Inputs


def run_folder(mode_dir: Path) -> Path:
    """The run folder above a mode's (`<run>/<mode>` or `<run>/rep-<k>/<mode>`): the one that holds params.json."""
    return next(
        (p for p in (mode_dir.parent, mode_dir.parent.parent) if (p / "params.json").is_file()), mode_dir.parent
    )


def record(mode_dir: Path, run: RunRecord, inputs: Inputs, levels: list[Level], t0: int | None) -> list[Level]:
    """The levels with their served delay, whether the stand-in served each late, and their injected failures
    (DOWNSTREAM_ERRORS/RESETS), from the delay-service's log, before the levels are judged: the health rule counts the
    injected failures as answered, and a level served late is set aside."""
    log = run.downstream.get("served_log")
    if not log:
        return levels
    path = run_folder(mode_dir) / str(log)
    by_second = served.read(path)
    levels = served.record_served(levels, t0, by_second)
    judged = _outside_brownout(by_second, t0, inputs.load.brownout)
    late = {level.position: why for level, why in served.level_problems(levels, t0, judged, inputs.call)}
    levels = [replace(lv, served_late=late[lv.position]) if lv.position in late else lv for lv in levels]
    if run.downstream.get("errors_pct") or run.downstream.get("resets_pct"):
        levels = served.count_injected(levels, t0, served.injected_by_second(path))
    if fanout.is_fanout(inputs.asked):
        levels = count_left_behind(levels, t0, path)
    return levels


def count_left_behind(levels: list[Level], t0: int | None, path: Path) -> list[Level]:
    """SCENARIO=fanout: the levels with the calls the stand-in saw left behind in their seconds (orphaned,
    cancelled); None without a served log (not counted, never zero)."""
    if not path.is_file():
        return levels
    gone = served.caller_gone_by_second(path)
    none = served.CallerGone()
    counted = []
    for level in levels:
        if t0 is not None and level.first_second is not None:
            seconds = [
                gone.get(s, none) for s in range(t0 + level.first_second, t0 + level.first_second + level.seconds)
            ]
            orphaned, cancelled = sum(g.orphan for g in seconds), sum(g.cancelled for g in seconds)
            level = replace(level, orphaned_calls=orphaned, cancelled_calls=cancelled)
        counted.append(level)
    return counted


def _outside_brownout(by_second: dict[int, list[str]], t0: int | None, plan: Brownout | None) -> dict[int, list[str]]:
    """The seconds the normal distribution is judged on: with PROFILE=brownout, not those whose answers the brownout
    shaped (summary/verdicts/brownout_figures.py checks them against its schedule)."""
    if t0 is None or plan is None:
        return by_second
    s = plan.schedule
    shaped = brownout_check.served_seconds_of_brownout(t0, s.start_s, s.end_s, s.ms)
    return {second: p for second, p in by_second.items() if second not in shaped}


def overview(run: RunRecord, dist: Distribution) -> dict[str, object] | None:
    """summary.json's `downstream`: the configured distribution (dist: downstream.of_run's) in words and its figures,
    the injected failures; None for a run from before the delay-service recorded its policy."""
    if not run.downstream:
        return None
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
