"""What the injectors need of a run's parameters, worked out once at the top of a run (`of_values`): the coarse
stairs' schedule and what each request asks. run/simulation.py makes each pass's `-Dloadlab.*` properties from it
(LoadConfig.java checks them again); run/load.py and run/finepasses.py time a pass by it; run/brownout_switch.py
reads a brownout's window from it."""

from __future__ import annotations

from dataclasses import dataclass

from loadlab.core import brownout_profile, downstream, fanout, mix, scenario_mix, stairs
from loadlab.core.run_params import RunParams
from loadlab.core.stairs import Stairs


@dataclass(frozen=True)
class LoadPlan:
    stairs: Stairs  # the coarse stairs (core/stairs.py); a fine pass offers its own rates (run/simulation.py)
    profile: str  # PROFILE as the simulation runs it: a brownout runs as stairs of one rate (its layout's)
    # The one request's settings: SCENARIO, or a SCENARIO mix's first kind, which stands for it (LoadConfig checks
    # them; the mix's kinds are what is sent).
    scenario: str
    cpu_ms: int
    delay_ms: int
    query: str  # the scenario's own query words (core/fanout.query)
    path: str  # APP_PATH with an APP (every request GETs it), else ""
    mix: str  # the resolved mix's property value (APP_REQUESTS's, else a SCENARIO mix's), "" for one request
    brownout: brownout_profile.Schedule | None  # PROFILE=brownout's window; None for any other profile
    injects_failures: bool  # DOWNSTREAM_ERRORS/RESETS: the injector sees failures the delay-service injected
    refine: bool  # REFINE=1: fine passes between the last healthy and the first unhealthy rate after the stairs


def of_values(values: RunParams) -> LoadPlan:
    """The plan of a run with these parameters (a mix file is read here, once: params.py checked that it loads)."""
    brownout = brownout_profile.is_brownout(values)
    scenario, resolved = values.scenario, ""
    if values.app_requests:
        resolved = mix.load(values.app_requests).property_value()
    elif scenario_mix.is_mix(values.scenario):
        resolved = scenario_mix.as_mix(values).property_value()
        scenario = scenario_mix.kinds(values.scenario)[0]
    return LoadPlan(
        stairs=stairs.of_values(values),
        profile="stairs" if brownout else values.profile,
        scenario=scenario,
        cpu_ms=values.cpu_ms,
        delay_ms=values.delay_ms,
        query=fanout.query(values),
        path=values.app_path if values.app else "",
        mix=resolved,
        brownout=brownout_profile.schedule(values) if brownout else None,
        injects_failures=downstream.injects_failures(values),
        refine=bool(values.refine),
    )
