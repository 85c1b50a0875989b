"""The coarse stairs a run climbs, as its parameters give them (START_RPS, PEAK_RPS, STEPS, STEP_SECONDS,
WARMUP_SECONDS), worked out once (`of_values`): the one record the injectors' plan (load_plan.py) and the preflight's
scope (run_scope.py) both hold."""

from __future__ import annotations

from dataclasses import dataclass

from loadlab.core.run_params import RunParams


@dataclass(frozen=True)
class Stairs:
    start_rps: int
    peak_rps: int
    steps: int
    step_seconds: int
    warmup_seconds: int

    @property
    def measured_seconds(self) -> int:
        """The measured phase of one coarse pass: its levels, warm-up excluded (RunParams.measured_seconds)."""
        return self.steps * self.step_seconds


def of_values(values: RunParams) -> Stairs:
    return Stairs(
        start_rps=values.start_rps,
        peak_rps=values.peak_rps,
        steps=values.steps,
        step_seconds=values.step_seconds,
        warmup_seconds=values.warmup_seconds,
    )
