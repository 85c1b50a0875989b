"""One Gatling run of a mode (a load pass) and the simulation's `-Dloadlab.*` properties for it, checked again on the
Java side by gatling/…/LoadConfig.java."""

from __future__ import annotations

from dataclasses import dataclass

from loadlab.analysis import refine
from loadlab.core import timeouts
from loadlab.core.load_plan import LoadPlan
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
    # the stairs again after the coarse warm-up ended before the service had caught up (summary/judge/warmup.py): the
    # whole WARMUP_SECONDS again, not a fine pass's short warm-up on a service already warm
    full_warmup: bool = False

    def raw(self, folder: str, index: int) -> tuple[str, ...]:
        return (folder, self.name, "raw", f"injector-{index}") if self.name else (folder, "raw", f"injector-{index}")

    def report(self, folder: str, index: int) -> tuple[str, ...]:
        return (folder, "gatling", f"{self.name}-injector-{index}" if self.name else f"injector-{index}")

    def gatling_log(self, index: int) -> str:
        return f"{self.name}-gatling-injector-{index}" if self.name else f"gatling-injector-{index}"

    def warmup_seconds(self, plan: LoadPlan) -> int:
        short = self.name and not self.full_warmup
        return refine.warmup_seconds(plan.stairs.warmup_seconds) if short else plan.stairs.warmup_seconds

    def scheduled_seconds(self, plan: LoadPlan) -> int:
        """Warm-up and levels, as scheduled (the simulation may stop earlier, after an unhealthy level)."""
        levels = len(self.rates) if self.name else plan.stairs.steps
        return self.warmup_seconds(plan) + levels * plan.stairs.step_seconds


COARSE = LoadPass()  # the coarse stairs of the parameters


def live_verdict_differs(plan: LoadPlan, expected_ms: float) -> str | None:
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
    if plan.injects_failures:
        return (
            "DOWNSTREAM_ERRORS/RESETS are on: the live verdict counts the injected failures against the service, the "
            "analysis counts them as answered (the delay-service's own record)"
        )
    return None


def gatling_props(run: Run, folder: str, index: int, load: LoadPass, go_file: str, go_timeout_s: int) -> list[str]:
    """The JVM waits for `go_file` (GoSignal.java), which gives the instant its schedule starts at."""
    plan, inj = run.plan, run.topo.injectors[index]
    props: dict[str, object] = {
        "baseUrl": f"http://{run.topo.thread.address}:{THREAD_PORT}",
        "scenario": plan.scenario,
        "cpuMs": plan.cpu_ms,
        # The scenario's own query words (SCENARIO=fanout: its calls per request and deadline).
        "query": plan.query,
        # An application under test: every request GETs APP_PATH instead of the scenario's endpoint.
        "path": plan.path,
        "delayMs": plan.delay_ms,
        # A brownout runs as stairs of one rate (core/brownout.resolved laid them out); the delay-service slows.
        "profile": plan.profile,
        "startRps": plan.stairs.start_rps,
        "peakRps": plan.stairs.peak_rps,
        "steps": plan.stairs.steps,
        "stepSeconds": plan.stairs.step_seconds,
        "warmupSeconds": plan.stairs.warmup_seconds,
        "warmupRps": plan.stairs.start_rps,
        "injectors": len(run.topo.injectors),
        "injectorIndex": index,
        "outDir": inj.work_path(*load.raw(folder, index)),
        "goFile": go_file,
        "goTimeoutSeconds": go_timeout_s,
        **timeouts.injector_props(run.limits),
        # Where the live verdict cannot judge as the analysis does (live_verdict_differs) it never stops the load; a
        # brownout's level is meant to be unhealthy, and what follows it is the measurement.
        "stopOnCollapse": str(
            live_verdict_differs(plan, run.limits.expected_ms) is None and plan.brownout is None
        ).lower(),
    }
    if plan.mix:
        # A weighted mix of kinds instead of the one path (APP_REQUESTS's, or SCENARIO's: each kind its scenario's
        # endpoint), resolved once (core/load_plan.py; Mix.java reads it).
        props["mix"] = plan.mix
    if load.name:
        # A fine pass: ascending stairs over its rates after a warm-up with headroom, judged (and stopped
        # early) against the coarse pass's baseline.
        props.update(
            {
                "profile": "stairs",
                "startRps": load.rates[0],
                "peakRps": load.rates[-1],
                "steps": len(load.rates),
                "warmupSeconds": load.warmup_seconds(plan),
                "warmupRps": load.warmup_rps or load.rates[0],
                "baselineP50Ms": load.baseline_p50_ms or 0,
            }
        )
    # The early stop judges with the run's health rule (thresholds.py), the one summary/ judges with.
    props.update(Thresholds.from_mapping(run.meta["thresholds"]).simulation_properties())
    return [f"-Dloadlab.{k}={val}" for k, val in props.items()]
