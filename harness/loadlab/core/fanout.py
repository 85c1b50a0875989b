"""SCENARIO=fanout: one request makes FANOUT calls to the delay-service at once and answers when all came back (or at
its deadline, FANOUT_TIMEOUT_MS). Its parameters and their checks, the thread-service's executor (FANOUT_POOL, the
platform shape's second pool), the query the injector sends, and the wait a request holds its thread for: the
slowest of its calls (`SlowestOf`). Standard library only, like params.py, which reads PARAMS.

The service's side: thread-service `loadlab.thread.fanout` (platform: a fixed executor; virtual: JDK 25's
StructuredTaskScope, else a virtual-thread executor; reactive-service: Mono.zip).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from loadlab.core import downstream
from loadlab.core.asked import Asked
from loadlab.core.downstream import HIGH_END_QUANTILE, Distribution
from loadlab.core.param_parsers import checked_by, int_in, optional_int_in
from loadlab.core.run_params import RunParams

FANOUT = "fanout"
# Calls per request: thread-service FanOutRequest.MAX_CALLS holds the same (test_fanout.py reads it).
FANOUT_MAX = 64
FANOUT_DEFAULT = 4
POOL_MAX = 100_000
TIMEOUT_MAX_MS = 3_600_000
FAIL, PARTIAL = "fail", "partial"
ON_TIMEOUT = (FAIL, PARTIAL)
# The service names the shape that ran on /actuator/loadlab (core/metrics.FANOUT_SHAPE).
SHAPES = {
    "platform-executor": "a fixed executor of platform threads, CompletableFutures joined",
    "structured-scope": "a StructuredTaskScope per request (JDK 25 preview)",
    "virtual-executor": "a virtual-thread-per-task executor per request, futures joined",
    "mono-zip": "Mono.zip of WebClient calls",
}


class FanoutError(ValueError):
    """A bad FANOUT_* value; the message is the one line the user sees."""


def parse_on_timeout(raw: str) -> str:
    value = raw.strip()
    if value not in ON_TIMEOUT:
        raise FanoutError(f"FANOUT_ON_TIMEOUT={raw!r} is not allowed; allowed: {' | '.join(ON_TIMEOUT)}")
    return value


# Rows of params.Param: name, default, help, parser, allowed.
PARAMS = (
    (
        "FANOUT",
        str(FANOUT_DEFAULT),
        "with SCENARIO=fanout: downstream calls each request makes at once (each its own draw of DELAY_DIST); the "
        "request answers when the slowest came back",
        int_in(1, FANOUT_MAX),
        f"1..{FANOUT_MAX}",
    ),
    (
        "FANOUT_POOL",
        "",
        "with SCENARIO=fanout, platform mode: threads of the executor the calls run on (empty: Tomcat's threads x "
        "FANOUT, the pool a team would write; smaller shows the executor as a second limit)",
        optional_int_in(1, POOL_MAX),
        f"empty, or 1..{POOL_MAX}",
    ),
    (
        "FANOUT_TIMEOUT_MS",
        "",
        "with SCENARIO=fanout: the request's deadline (ms); at it the request answers with what came back "
        "(FANOUT_ON_TIMEOUT=partial) or 504 (fail) (empty: no deadline)",
        optional_int_in(1, TIMEOUT_MAX_MS),
        "empty, or 1..(the lab's own limit on a call)",
    ),
    (
        "FANOUT_ON_TIMEOUT",
        FAIL,
        "with FANOUT_TIMEOUT_MS: partial (200 naming the missing calls) or fail (504 problem fanout-deadline)",
        checked_by(parse_on_timeout, FanoutError),
        " | ".join(ON_TIMEOUT),
    ),
)
NAMES = tuple(p[0] for p in PARAMS)


def is_fanout(values: RunParams | Asked) -> bool:
    return values.scenario == FANOUT


def cross_checks(v: RunParams, call_limit_ms: int | None) -> list[str]:
    """One line per refusal. call_limit_ms: the lab's own limit on one downstream call (timeouts.Limits), which a
    deadline must stay below: past it the lab, not the deadline, would end the calls."""
    set_apart = (
        ("FANOUT", v.fanout, FANOUT_DEFAULT),
        ("FANOUT_POOL", v.fanout_pool, None),
        ("FANOUT_TIMEOUT_MS", v.fanout_timeout_ms, None),
        ("FANOUT_ON_TIMEOUT", v.fanout_on_timeout, FAIL),
    )
    given = [f"{name}={value}" for name, value, default in set_apart if value != default]
    if not is_fanout(v):
        return [f"{given[0]} has no effect with SCENARIO={v.scenario}; allowed: SCENARIO=fanout"] if given else []
    errors = []
    if v.app:
        errors.append(f"SCENARIO=fanout is the lab's own endpoint, not APP={v.app!r}'s; allowed: APP empty")
    timeout = v.fanout_timeout_ms
    if v.fanout_on_timeout == PARTIAL and timeout is None:
        errors.append(
            "FANOUT_ON_TIMEOUT=partial answers at a deadline, and FANOUT_TIMEOUT_MS is empty; allowed: "
            "FANOUT_TIMEOUT_MS=1.. with partial, or FANOUT_ON_TIMEOUT=fail"
        )
    if timeout is not None and call_limit_ms is not None and timeout >= call_limit_ms:
        errors.append(
            f"FANOUT_TIMEOUT_MS={timeout} is not below the lab's own limit on a call ({call_limit_ms} ms, derived from "
            f"the delay), which would end the calls before the deadline; allowed: 1..{call_limit_ms - 1}"
        )
    modes = " ".join(v.modes)
    if v.fanout_pool is not None and "platform" not in v.modes:
        errors.append(
            f"FANOUT_POOL={v.fanout_pool} sizes platform mode's executor and MODES='{modes}' runs no platform mode; "
            "allowed: FANOUT_POOL empty, or platform in MODES"
        )
    return errors


def calls(values: RunParams | Asked) -> int:
    """Downstream calls per request: FANOUT in SCENARIO=fanout, else one."""
    return values.fanout if is_fanout(values) else 1


def pool(values: RunParams | Asked, tomcat_threads: int) -> int:
    """Platform mode's executor: FANOUT_POOL, else Tomcat's threads x FANOUT (every request's calls at once)."""
    given = values.fanout_pool
    return given if given is not None else tomcat_threads * calls(values)


def thread_service_args(values: RunParams, tomcat_threads: int) -> list[str]:
    """The thread-service's executor for the platform shape (the others ignore it). Given on every run, fan-out or
    not: make exports FANOUT_POOL even when it is empty, and Spring's relaxed binding would read that as fanout.pool=""
    (no int: the service fails to start) where no argument of the command line overrides it."""
    return [f"--fanout.pool={pool(values, tomcat_threads)}"]


def query(values: RunParams) -> str:
    """The endpoint's query beyond ms and cpuMs (LoadConfig's `query`): `n=4`, with the deadline when there is one."""
    if not is_fanout(values):
        return ""
    words = [f"n={calls(values)}"]
    if values.fanout_timeout_ms is not None:
        words += [f"timeoutMs={values.fanout_timeout_ms}", f"onTimeout={values.fanout_on_timeout}"]
    return "&".join(words)


class Quantiles(Protocol):
    """What SlowestOf needs of one call's distribution (core/downstream.Distribution)."""

    @property
    def is_constant(self) -> bool: ...

    def quantile_ms(self, q: float) -> float: ...

    def describe(self) -> str: ...


@dataclass(frozen=True)
class SlowestOf:
    """The wait of a request that makes `calls` independent draws of `one` at once and waits for the slowest: its
    q-quantile is one call's q^(1/calls)-quantile (P(max <= x) = F(x)^calls). The same questions Distribution
    answers, so the health rule, the lab's limits and Little's law read a fan-out request as they read one call."""

    one: Quantiles
    calls: int

    @property
    def is_constant(self) -> bool:
        return self.one.is_constant

    @property
    def kind(self) -> str:
        return getattr(self.one, "kind", "")

    def quantile_ms(self, q: float) -> float:
        q = min(max(q, 0.0), 1.0)
        return self.one.quantile_ms(q ** (1.0 / self.calls))

    def mean_ms(self) -> float:
        """E[max] = integral over v of Q(v) d(v^calls): midpoints in v, dense toward 1 where a heavy tail lives."""
        total, low = 0.0, 0.0
        for high in _grid():
            weight = high**self.calls - low**self.calls
            total += weight * self.one.quantile_ms((low + high) / 2)
            low = high
        return total

    def p50_ms(self) -> float:
        return self.quantile_ms(0.5)

    def p99_high_ms(self) -> float:
        return self.quantile_ms(0.99)

    def high_end_ms(self) -> float:
        return self.quantile_ms(HIGH_END_QUANTILE)

    def share_above_ms(self, ms: float) -> float:
        return downstream.share_above(self.quantile_ms, ms)

    def describe(self) -> str:
        return f"the slowest of {self.calls} calls, each {self.one.describe()}"

    def wait_words(self) -> str:
        median, p99 = self.p50_ms() / 1000, self.p99_high_ms() / 1000
        return f"(the slowest of {self.calls} calls: median {median:.3g} s, p99 {p99:.3g} s)"


def _grid() -> list[float]:
    """Upper ends of the integration cells: 2,000 even cells to 0.99, then 60 per decade to 1 - 1e-9."""
    even = [0.99 * (i + 1) / 2000 for i in range(2000)]
    tail = [1 - 0.01 * 10 ** (-k / 60) for k in range(1, 7 * 60 + 1)]
    return [*even, *tail, 1.0 - 1e-12]


def request_wait(one: Distribution, values: RunParams) -> Distribution | SlowestOf:
    """What one request of the run waits for downstream: one call, or the slowest of FANOUT."""
    n = calls(values)
    return one if n == 1 else SlowestOf(one, n)


def request_distribution(values: RunParams) -> Distribution | SlowestOf:
    """The run's request wait from its checked parameters: what the lab's limits and the health rule follow."""
    return request_wait(downstream.distribution(values), values)
