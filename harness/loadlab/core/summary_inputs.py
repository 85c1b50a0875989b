"""What the summary stage reads of a run's parameters, worked out once from its params.json: the load the injectors
offered (`Load`), what the service was asked for (asked.Asked), the mode labels asked for and the downstream's
distribution. summary.write builds it at the top of a summary, summary/judge/fine_plan.py at the top of bench's look at
a mode still running; every summary function below takes these and no RunParams (issue 53).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from loadlab.core import brownout_profile, downstream, fanout, param_limits, runplan, timeouts
from loadlab.core.asked import Asked
from loadlab.core.downstream import Distribution
from loadlab.core.fanout import SlowestOf
from loadlab.core.reactive import REACTIVE
from loadlab.core.run_params import RunParams
from loadlab.core.runrecord import RunRecord


@dataclass(frozen=True)
class Brownout:
    """PROFILE=brownout: its schedule and what its models read (brownout_profile.model)."""

    schedule: brownout_profile.Schedule
    # One request's hold outside the brownout (brownout_profile.hold_s); None when the distribution it is read from
    # cannot be read any more (DELAY_DIST's hgrm file gone since the run): the modes are then measured, not modelled.
    hold_s: float | None
    cpu_ms: int

    def model(self, hold_s: float, rate: float, pool: int | None, sheds: bool = False) -> brownout_profile.Model:
        return brownout_profile.model_of(self.schedule, hold_s, self.cpu_ms, rate, pool, sheds)


@dataclass(frozen=True)
class Load:
    """The load the injectors offered, as the summary judges it."""

    expected_ms: float  # what one request should take on an idle service; 0 when the parameters do not say
    completion_lag_s: int  # whole seconds a healthy request takes (timeouts.completion_lag_s)
    warmup_seconds: int
    refine: bool  # REFINE=1: fine passes were asked for
    stairs: bool  # PROFILE=stairs: its levels can be measured again (a ramp or a brownout has no stairs)
    rates: tuple[float, ...]  # the coarse pass's offered rates (runplan.levels)
    brownout: Brownout | None  # None: not PROFILE=brownout


@dataclass(frozen=True)
class Inputs:
    load: Load
    asked: Asked
    # The mode labels the run asked for, in order: `platform`, `virtual`, `platform-t<N>` for each size of a pool
    # sweep, `<mode>-jdk<N>` with several JDKs (runplan.mode_runs, the one place labels are made).
    labels: tuple[str, ...]
    reactive: bool  # MODES named reactive
    call: Distribution  # one downstream call's distribution as the run had it (downstream.of_run)
    wait: Distribution | SlowestOf  # what one request waits downstream: the call, or a fan-out's slowest


def of_run(run: RunRecord) -> Inputs:
    return of(run.params, run.downstream)


def of(params: RunParams, recorded: Mapping[str, object] | None = None) -> Inputs:
    """recorded: params.json's `downstream`, the delay-service's policy as the run had it (downstream.of_run)."""
    call = downstream.of_run(params, recorded)
    return Inputs(
        load=load_of(params),
        asked=Asked.of(params),
        # A run from before JDKS reads as one JDK, the default's: only the count shapes the labels.
        labels=tuple(r.label for r in runplan.mode_runs(params.modes, params.jdks, params.platform_threads)),
        reactive=REACTIVE in params.modes,
        call=call,
        wait=fanout.request_wait(call, params),
    )


def load_of(params: RunParams) -> Load:
    expected = _read(lambda: float(timeouts.expected_ms(params))) or 0.0  # 0: the parameters do not say
    brownout = None
    if brownout_profile.is_brownout(params):
        schedule = brownout_profile.schedule(params)
        brownout = Brownout(schedule, _read(lambda: brownout_profile.hold_s(params)), params.cpu_ms)
    return Load(
        expected_ms=expected,
        completion_lag_s=timeouts.completion_lag_s(expected),
        warmup_seconds=params.warmup_seconds,
        refine=bool(params.refine),
        stairs=params.profile == param_limits.STAIRS,
        rates=tuple(runplan.levels(params)),
        brownout=brownout,
    )


def _read(figure: Callable[[], float]) -> float | None:
    """A figure of the run's parameters; None when they do not say (a DELAY_DIST file that cannot be read again)."""
    try:
        return figure()
    except (KeyError, TypeError, ValueError):
        return None
