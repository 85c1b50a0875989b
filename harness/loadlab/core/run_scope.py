"""Where a run goes and how much it measures, taken from its parameters once (`of_values`): TARGET with its injectors,
RESULTS_DIR, the columns (MODES on each of JDKS, platform once per pool) times REPEAT, the coarse stairs, REFINE's
fine passes and LADDER's rungs. run/preflight.py checks the hosts, the runtimes and the pools by it, and estimates the
run folder's size from it."""

from __future__ import annotations

from dataclasses import dataclass

from loadlab.core import stairs
from loadlab.core.run_params import RunParams
from loadlab.core.stairs import Stairs


@dataclass(frozen=True)
class RunScope:
    target: str
    results_dir: str  # as given (the preflight names it so)
    injectors: int
    modes: tuple[str, ...]
    jdks: tuple[int, ...]
    platform_threads: tuple[int, ...]
    repeat: int
    stairs: Stairs  # the coarse stairs (core/stairs.py)
    refine: int
    ladder: int | None
    target_rps: float | None


def of_values(values: RunParams) -> RunScope:
    return RunScope(
        target=values.target,
        results_dir=values.results_dir,
        injectors=values.injectors,
        modes=values.modes,
        jdks=values.jdks,
        platform_threads=values.platform_threads,
        repeat=values.repeat,
        stairs=stairs.of_values(values),
        refine=values.refine,
        ladder=values.ladder,
        target_rps=values.target_rps,
    )
