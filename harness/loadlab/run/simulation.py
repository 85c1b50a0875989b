"""One Gatling run of a mode (a load pass) and the simulation's `-Dloadlab.*` properties for it, checked again on the
Java side by gatling/…/LoadConfig.java."""

from __future__ import annotations

from dataclasses import dataclass

from loadlab.analysis import refine
from loadlab.core import brownout_profile as brownout
from loadlab.core import downstream, fanout, mix, scenario_mix, timeouts
from loadlab.core.run_params import RunParams
from loadlab.core.thresholds import Thresholds
from loadlab.run.context import Run
from loadlab.run.topology import THREAD_PORT


@dataclass(frozen=True)
class LoadPass:
    """One Gatling run of a mode: the coarse stairs (the parameters), or a fine pass between two rates."""

    name: str = ""  # "" for the coarse stairs, `refine-<k>` for a fine pass
    rates: tuple[float, ...] = ()  # a fine pass's levels (evenly spaced, ascending)
    baseline_p50_ms: float | None = None  # the coarse pass's baseline, which the fine levels are judged against
    warmup_rps: float | None = None  # a fine pass's warm-up rate (refine.warmup_rate)
    # the stairs again after the coarse warm-up ended before the service had caught up (summary/warmup.py): the whole
    # WARMUP_SECONDS again, not a fine pass's short warm-up on a service already warm
    full_warmup: bool = False

    def raw(self, folder: str, index: int) -> tuple[str, ...]:
        return (folder, self.name, "raw", f"injector-{index}") if self.name else (folder, "raw", f"injector-{index}")

    def report(self, folder: str, index: int) -> tuple[str, ...]:
        return (folder, "gatling", f"{self.name}-injector-{index}" if self.name else f"injector-{index}")

    def gatling_log(self, index: int) -> str:
        return f"{self.name}-gatling-injector-{index}" if self.name else f"gatling-injector-{index}"

    def warmup_seconds(self, values: RunParams) -> int:
        short = self.name and not self.full_warmup
        return refine.warmup_seconds(values.warmup_seconds) if short else values.warmup_seconds

    def scheduled_seconds(self, values: RunParams) -> int:
        """Warm-up and levels, as scheduled (the simulation may stop earlier, after an unhealthy level)."""
        levels = len(self.rates) if self.name else values.steps
        return self.warmup_seconds(values) + levels * values.step_seconds


COARSE = LoadPass()  # the coarse stairs of the parameters


def live_verdict_differs(v: RunParams, expected_ms: float) -> str | None:
    """Why the simulation's live verdict of a level (its console line, its early stop) cannot be the analysis's for
    this run, or None when it is the same rule on the same counts. A decision, not a gap to close in Java: the live
    verdict must come at the level's end, from what the injector alone has seen by then.
    - Requests of a second or more (completion_lag_s > 0): the injector counts a level's answers by the second they
      complete in, where the next level's mix with its own, and holds a step up to the baseline p50's allowance; the
      analysis counts each level's steady part by send second and reads the step's allowance off the level's own
      latencies (health.expected_completions_rps), which a heavy tail makes far longer than its median. That needs
      every request of the level answered, up to a timeout after its end: too late for a live verdict.
    - DOWNSTREAM_ERRORS/RESETS: the injector sees the service's 502s and resets, not which of them the delay-service
      injected; the analysis counts those as answered from the delay-service's own record (raw/delay/served.hlog, on
      another host, read after the run). Live, an injected 5% would be the service's 5% errors."""
    if timeouts.completion_lag_s(expected_ms) > 0:
        return (
            "its requests take a second or more: the live verdict counts answers by the second they complete in, the "
            "analysis each level's own requests by send second with their own latencies"
        )
    if downstream.injects_failures(v):
        return (
            "DOWNSTREAM_ERRORS/RESETS are on: the live verdict counts the injected failures against the service, the "
            "analysis counts them as answered (the delay-service's own record)"
        )
    return None


def gatling_props(run: Run, folder: str, index: int, load: LoadPass, go_file: str, go_timeout_s: int) -> list[str]:
    """The JVM waits for `go_file` (GoSignal.java), which gives the instant its schedule starts at."""
    v, inj = run.values, run.topo.injectors[index]
    props = {
        "baseUrl": f"http://{run.topo.thread.address}:{THREAD_PORT}",
        "scenario": v.scenario,
        "cpuMs": v.cpu_ms,
        # The scenario's own query words (SCENARIO=fanout: its calls per request and deadline).
        "query": fanout.query(v),
        # An application under test: every request GETs APP_PATH instead of the scenario's endpoint.
        "path": v.app_path if v.app else "",
        "delayMs": v.delay_ms,
        # A brownout runs as stairs of one rate (core/brownout.resolved laid them out); the delay-service slows.
        "profile": "stairs" if brownout.is_brownout(v) else v.profile,
        "startRps": v.start_rps,
        "peakRps": v.peak_rps,
        "steps": v.steps,
        "stepSeconds": v.step_seconds,
        "warmupSeconds": v.warmup_seconds,
        "warmupRps": v.start_rps,
        "injectors": len(run.topo.injectors),
        "injectorIndex": index,
        "outDir": inj.work_path(*load.raw(folder, index)),
        "goFile": go_file,
        "goTimeoutSeconds": go_timeout_s,
        **timeouts.injector_props(run.limits),
        # Where the live verdict cannot judge as the analysis does (live_verdict_differs) it never stops the load; a
        # brownout's level is meant to be unhealthy, and what follows it is the measurement.
        "stopOnCollapse": str(
            live_verdict_differs(v, run.limits.expected_ms) is None and not brownout.is_brownout(v)
        ).lower(),
    }
    if v.app_requests:
        # A weighted mix of kinds instead of the one path, resolved here once (core/mix.py; Mix.java reads it).
        props["mix"] = mix.load(v.app_requests).property_value()
    elif scenario_mix.is_mix(v.scenario):
        # SCENARIO's mix: each kind its scenario's endpoint, sent through the same mix. The single-request settings
        # stay valid (LoadConfig checks them) and unused: the first kind stands for the scenario.
        props["mix"] = scenario_mix.as_mix(v).property_value()
        props["scenario"] = scenario_mix.kinds(v.scenario)[0]
    if load.name:
        # A fine pass: ascending stairs over its rates after a warm-up with headroom, judged (and stopped
        # early) against the coarse pass's baseline.
        props.update(
            {
                "profile": "stairs",
                "startRps": load.rates[0],
                "peakRps": load.rates[-1],
                "steps": len(load.rates),
                "warmupSeconds": load.warmup_seconds(v),
                "warmupRps": load.warmup_rps or load.rates[0],
                "baselineP50Ms": load.baseline_p50_ms or 0,
            }
        )
    # The early stop judges with the run's health rule (thresholds.py), the one summary/ judges with.
    props.update(Thresholds.from_mapping(run.meta["thresholds"]).simulation_properties())
    return [f"-Dloadlab.{k}={val}" for k, val in props.items()]
