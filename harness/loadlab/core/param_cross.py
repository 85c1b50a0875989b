"""The checks across run parameters, after each one parsed on its own: a pair that cannot run together is refused in
one line naming both, before anything starts."""

from __future__ import annotations

from loadlab.core import (
    app,
    client,
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
from loadlab.core.run_params import RunParams


def cross_checks(v: RunParams, defaults: RunParams) -> list[str]:
    """Every error of a combination (defaults: every parameter's default, which APP's companions are held to)."""
    errors = []
    if v.peak_rps < v.start_rps:
        errors.append(f"PEAK_RPS={v.peak_rps} is below START_RPS={v.start_rps}; allowed: {v.start_rps}..100000")
    if v.start_rps < v.injectors:
        # Each injector must offer at least one request per second, or its schedule shifts by whole seconds.
        errors.append(
            f"START_RPS={v.start_rps} is below INJECTORS={v.injectors}; allowed: at least 1 request/s per injector"
        )
    if len(v.platform_threads) > 1 and "platform" not in v.modes:
        errors.append(
            f"PLATFORM_THREADS='{' '.join(map(str, v.platform_threads))}' is a sweep of platform pools but MODES="
            f"'{' '.join(v.modes)}' runs no platform mode; allowed: one size, or platform in MODES"
        )
    if scenario_mix.has(v, "cpu") and v.cpu_ms == 0:
        said = v.scenario if v.scenario == "cpu" else f"'{v.scenario}'"
        errors.append(f"CPU_MS=0 is out of range for SCENARIO={said}; allowed: 1..{CPU_MS_MAX}")
    errors.extend(scenario_mix.cross_checks(v))
    errors.extend(servicecpus.cross_check(v))
    errors.extend(app.cross_checks(v, defaults))
    errors.extend(reactive.cross_checks(v))
    errors.extend(client.cross_checks(v))
    drawn = downstream_use.distribution_checks(v)
    errors.extend(drawn)
    errors.extend(downstream_use.cross_checks(v))
    measured = v.measured_seconds
    if measured > MAX_MEASURED_SECONDS:
        errors.append(f"STEPS x STEP_SECONDS = {measured} s is too long; allowed: at most {MAX_MEASURED_SECONDS} s")
    # The request chain's limits follow DELAY_MS; where a cap of Gatling or of the machine cannot, say so now.
    if not drawn:  # the limits follow the delay's distribution, which must be whole first
        errors.extend(timeouts.range_errors(v))
        errors.extend(inflight.range_errors(v))
        errors.extend(guards.cross_checks(v))
    errors.extend(fanout.cross_checks(v, None if drawn else timeouts.derive(v).thread_service_timeout_ms))
    return errors
