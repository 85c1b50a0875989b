"""Every limit a request meets on its way through the lab, derived in one place from what one request should take.

A limit that cuts a request turns it into an error, and errors make a level unhealthy. So a limit of the harness
must never cut a request that the health rule would still call healthy, or the harness's own limit reads as the
service's collapse (an 11 s delay against a fixed 10 s injector timeout would read as "collapsed, valid").
Each limit is therefore set above the slowest latency the health rule accepts for a request of the expected time,
with a stated margin: a request cut there is one the rule already counts as too slow, so the cut changes no
verdict. The order matters too: the thread-service gives up on a slow downstream before the injector gives up on
the thread-service, so a slow delay-service or database shows as the service's 504, not as an injector timeout.

    expected = DELAY_MS + CPU_MS                          what one request takes on an idle service (DELAY_MS is
                                                          the median of a DELAY_DIST other than constant)
    healthy  = max(p99_factor x expected,                 the slowest p99 the health rule accepts when the
                   expected + p99_slack_ms)               baseline p50 is the expected time (with a distribution,
                                                          the rule's slack follows its p99: downstream.py)
    service  = max(healthy, high end + CPU_MS)            thread-service: delay-service connect and whole response,
               + SERVICE_MARGIN_MS                        (high end: the distribution's 99.99th percentile, or
                                                          BROWNOUT_MS with PROFILE=brownout when it is longer)
                                                          database connection wait and query
    injector = service + CPU_MS + INJECTOR_MARGIN_MS      Gatling connect and whole request (PROFILE=brownout: +
               + QUEUE_WAIT_HEADROOM x queue wait         a full pool's predicted queue wait (brownout_profile), so a
                                                          request queued through the brownout is measured, not cut)
    probe    = DELAY_MS + PROBE_GRACE_MS                  the delay-service's own latency probe (loadlab-sample)

Where a limit cannot follow (a cap of a library or of the machine), `range_errors` refuses the parameters before
anything starts. Standard library only: params.py (run before the venv exists) calls it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from loadlab.core import brownout_profile as brownout
from loadlab.core import downstream, fanout
from loadlab.core.inflight import INJECTOR_MAX_INFLIGHT
from loadlab.core.run_params import RunParams
from loadlab.core.thresholds import Thresholds

# What the thread-service may add beyond the slowest healthy request before it gives up on a downstream call.
SERVICE_MARGIN_MS = 1000
# What the injector waits beyond the service's own limit: the service's CPU work and the time to send its 504.
INJECTOR_MARGIN_MS = 2000
# PROFILE=brownout: the injector waits this many times a full pool's predicted queue wait on top (the model leaves out
# the hand-offs and the CPU a backlog costs).
QUEUE_WAIT_HEADROOM = 2.0
# The delay-service probe: how long beyond DELAY_MS a probe may take before it counts as failed. A probe slower
# than DELAY_MS + validity.py's allowance already marks the delay-service saturated; this only ends the wait.
PROBE_GRACE_MS = 2000
# Gatling's and the simulation's cap on one request's timeout (LoadConfig.requestTimeoutMs, SecondRecorder).
GATLING_MAX_TIMEOUT_MS = 3_600_000


@dataclass(frozen=True)
class Limits:
    """The limits of one run, in ms (recorded in params.json as `limits`)."""

    expected_ms: int
    healthy_max_ms: int
    thread_service_timeout_ms: int
    thread_service_connect_timeout_ms: int
    database_timeout_ms: int
    injector_request_timeout_ms: int
    injector_connect_timeout_ms: int
    delay_probe_timeout_ms: int
    injector_max_inflight: int

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


def expected_ms(values: RunParams) -> int:
    """What one request takes on an idle service: the downstream wait (a fan-out's slowest call's median) plus any
    computation."""
    wait = round(fanout.request_distribution(values).p50_ms()) if fanout.is_fanout(values) else values.delay_ms
    return wait + values.cpu_ms


def derive(values: RunParams, thresholds: Thresholds | None = None) -> Limits:
    """thresholds: the health rule the run judges with (when not given, the contract's defaults for the run's delay
    distribution: downstream.health_thresholds)."""
    expected = expected_ms(values)
    dist = fanout.request_distribution(values)
    healthy = round((thresholds or downstream.health_thresholds(dist)).p99_limit_ms(expected))
    high_end = round(dist.high_end_ms()) + values.cpu_ms
    if brownout.is_brownout(values):  # the brownout's answers are measured, never cut by the lab's own limits
        high_end = max(high_end, values.brownout_ms + values.cpu_ms)
    service = max(healthy, high_end) + SERVICE_MARGIN_MS
    injector = service + values.cpu_ms + INJECTOR_MARGIN_MS
    injector += round(QUEUE_WAIT_HEADROOM * brownout.queue_wait_s(values) * 1000)
    return Limits(
        expected_ms=expected,
        healthy_max_ms=healthy,
        thread_service_timeout_ms=service,
        # A connect gets the whole call's budget: a slow connect is judged by the latency it adds, like any wait.
        thread_service_connect_timeout_ms=service,
        database_timeout_ms=service,
        injector_request_timeout_ms=injector,
        injector_connect_timeout_ms=injector,
        delay_probe_timeout_ms=values.delay_ms + PROBE_GRACE_MS,
        injector_max_inflight=INJECTOR_MAX_INFLIGHT,
    )


def thread_service_args(limits: Limits) -> list[str]:
    """The thread-service's Spring properties for these limits (`--name=value`, as `java -jar` takes them)."""
    return [
        f"--delay-service.timeout={limits.thread_service_timeout_ms}ms",
        f"--delay-service.connect-timeout={limits.thread_service_connect_timeout_ms}ms",
    ]


def database_timeouts_ms(limits: Limits) -> dict[str, int]:
    """The database scenario's limits: waiting for a pooled connection and one query. Waiting for the pool is the
    queue the `db` scenario measures; like every other limit it must only cut what the health rule calls too slow."""
    return {"connection_timeout_ms": limits.database_timeout_ms, "query_timeout_ms": limits.database_timeout_ms}


def injector_props(limits: Limits) -> dict[str, int]:
    """The simulation's `loadlab.*` properties for these limits."""
    return {
        "requestTimeoutMs": limits.injector_request_timeout_ms,
        "connectTimeoutMs": limits.injector_connect_timeout_ms,
        "maxInflight": limits.injector_max_inflight,
    }


def completion_lag_s(expected: float) -> int:
    """Whole seconds between a request's send and its completion on a healthy service.

    The raw files count completions by the second they end in; a level's own requests end this much after the
    level's window, so its completions are read from a window shifted by it (0 for requests under half a second).
    """
    return max(0, round(expected / 1000.0))


def range_errors(values: RunParams) -> list[str]:
    """One line when the limits cannot follow the request's time: Gatling's cap on one request's timeout (the
    injectors' in-flight cap has its own check: inflight.range_errors)."""
    errors = []
    limits = derive(values)
    if limits.injector_request_timeout_ms > GATLING_MAX_TIMEOUT_MS:
        errors.append(
            f"DELAY_MS={values.delay_ms} gives an injector request timeout of "
            f"{limits.injector_request_timeout_ms} ms, over Gatling's cap of {GATLING_MAX_TIMEOUT_MS} ms; "
            f"allowed: DELAY_MS + CPU_MS so that 2 x (DELAY_MS + CPU_MS) + "
            f"{SERVICE_MARGIN_MS + INJECTOR_MARGIN_MS} + CPU_MS <= {GATLING_MAX_TIMEOUT_MS}"
        )
    return errors
