"""The checks across run parameters, after each one parsed on its own: a pair that cannot run together is refused in
one line naming both, before anything starts."""

from __future__ import annotations

from collections.abc import Mapping

from loadlab.core import (
    app,
    client,
    downstream,
    downstream_use,
    fanout,
    guards,
    inflight,
    reactive,
    scenario_mix,
    servicecpus,
    timeouts,
)
from loadlab.core.param_limits import CPU_MS_MAX, MAX_MEASURED_SECONDS


def cross_checks(v: dict[str, object], companion_defaults: Mapping[str, str]) -> list[str]:
    """Every error of a combination (companion_defaults: the defaults of APP's companion parameters)."""
    errors = []
    if v["PEAK_RPS"] < v["START_RPS"]:
        errors.append(
            f"PEAK_RPS={v['PEAK_RPS']} is below START_RPS={v['START_RPS']}; allowed: {v['START_RPS']}..100000"
        )
    if v["START_RPS"] < v["INJECTORS"]:
        # Each injector must offer at least one request per second, or its schedule shifts by whole seconds.
        errors.append(
            f"START_RPS={v['START_RPS']} is below INJECTORS={v['INJECTORS']}; "
            f"allowed: at least 1 request/s per injector"
        )
    if len(v["PLATFORM_THREADS"]) > 1 and "platform" not in v["MODES"]:
        errors.append(
            f"PLATFORM_THREADS='{' '.join(map(str, v['PLATFORM_THREADS']))}' is a sweep of platform pools but MODES="
            f"'{' '.join(v['MODES'])}' runs no platform mode; allowed: one size, or platform in MODES"
        )
    if scenario_mix.has(v, "cpu") and v["CPU_MS"] == 0:
        said = v["SCENARIO"] if v["SCENARIO"] == "cpu" else f"'{v['SCENARIO']}'"
        errors.append(f"CPU_MS=0 is out of range for SCENARIO={said}; allowed: 1..{CPU_MS_MAX}")
    errors.extend(scenario_mix.cross_checks(v))
    errors.extend(servicecpus.cross_check(v))
    errors.extend(app.cross_checks(v, companion_defaults))
    errors.extend(reactive.cross_checks(v))
    errors.extend(client.cross_checks(v))
    drawn = downstream.cross_checks(v)
    errors.extend(drawn)
    errors.extend(downstream_use.cross_checks(v))
    measured = v["STEPS"] * v["STEP_SECONDS"]
    if measured > MAX_MEASURED_SECONDS:
        errors.append(f"STEPS x STEP_SECONDS = {measured} s is too long; allowed: at most {MAX_MEASURED_SECONDS} s")
    # The request chain's limits follow DELAY_MS; where a cap of Gatling or of the machine cannot, say so now.
    if not drawn:  # the limits follow the delay's distribution, which must be whole first
        errors.extend(timeouts.range_errors(v))
        errors.extend(inflight.range_errors(v))
        errors.extend(guards.cross_checks(v))
    errors.extend(fanout.cross_checks(v, None if drawn else timeouts.derive(v).thread_service_timeout_ms))
    return errors
