"""Where a run goes and how much it measures, taken from its parameters once (`of_values`): TARGET with its injectors,
RESULTS_DIR, the columns (MODES on each of JDKS, platform once per pool) times REPEAT, the coarse stairs, REFINE's
fine passes and LADDER's rungs. run/preflight.py checks the hosts, the runtimes and the pools by it, and estimates the
run folder's size from it."""

from __future__ import annotations

from dataclasses import dataclass

from loadlab.core.run_params import RunParams


@dataclass(frozen=True)
class RunScope:
    target: str
    results_dir: str  # as given (the preflight names it so)
    injectors: int
    modes: tuple[str, ...]
    jdks: tuple[int, ...]
    platform_threads: tuple[int, ...]
    repeat: int
    start_rps: int
    peak_rps: int
    steps: int
    step_seconds: int
    warmup_seconds: int
    refine: int
    ladder: int | None
    target_rps: float | None

    @property
    def measured_seconds(self) -> int:
        """The measured phase of one coarse pass: its levels, warm-up excluded (RunParams.measured_seconds)."""
        return self.steps * self.step_seconds


def of_values(values: RunParams) -> RunScope:
    return RunScope(
        target=values.target,
        results_dir=values.results_dir,
        injectors=values.injectors,
        modes=values.modes,
        jdks=values.jdks,
        platform_threads=values.platform_threads,
        repeat=values.repeat,
        start_rps=values.start_rps,
        peak_rps=values.peak_rps,
        steps=values.steps,
        step_seconds=values.step_seconds,
        warmup_seconds=values.warmup_seconds,
        refine=values.refine,
        ladder=values.ladder,
        target_rps=values.target_rps,
    )
