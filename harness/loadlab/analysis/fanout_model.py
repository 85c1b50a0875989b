"""SCENARIO=fanout's own limits: a request holds FANOUT slots of anything its calls each take, for one call each.

- executor: platform mode runs the calls on a fixed executor of FANOUT_POOL threads; each call holds a thread for the
  call, so at most FANOUT_POOL / (FANOUT x the call's mean) requests complete a second — the platform shape's second
  pool, beside Tomcat's (whose threads wait for the slowest call: models.little on core/fanout.SlowestOf).
- a pooled HTTP client's connections (CLIENT=apache or reactor) are taken the same way: FANOUT per request.

The call's hold is one draw's mean (what the distribution promises) at least, and what the service timed its calls at
on its healthy levels at most (its own downstream timer, which holds the client's overhead).
"""

from __future__ import annotations

from dataclasses import dataclass

from loadlab.analysis.holds import HoldTime
from loadlab.analysis.prediction import Prediction
from loadlab.analysis.slots import slots_over_hold
from loadlab.core.downstream import Distribution


@dataclass(frozen=True)
class FanoutShape:
    """What the models need of a fan-out run: calls per request, one call's distribution and platform's executor
    (None: not platform, or not known)."""

    calls: int
    call: Distribution
    executor_threads: float | None = None


def call_hold(shape: FanoutShape, measured_call_ms: list[float]) -> HoldTime:
    """What one call holds its thread (or connection) for: the distribution's mean, up to the service's own timing."""
    mean = shape.call.mean_ms()
    timed = [ms for ms in measured_call_ms if ms]
    words = "constant" if shape.call.is_constant else f"mean of {shape.call.describe()}"
    return HoldTime(mean, f"one call: {words}", mean, max([mean, *timed]), len(timed) or None)


def request_hold(shape: FanoutShape, measured_call_ms: list[float]) -> HoldTime:
    """A request's share of a per-call pool: its FANOUT calls, each one call's hold."""
    one = call_hold(shape, measured_call_ms)
    n = shape.calls
    return HoldTime(
        n * one.ms, f"{n} calls × {one.ms:.0f} ms ({one.source})", n * one.shortest_ms, n * one.longest_ms, one.levels
    )


def executor(shape: FanoutShape | None, measured_call_ms: list[float]) -> Prediction | None:
    if shape is None or not shape.executor_threads:
        return None
    hold = request_hold(shape, measured_call_ms)
    threads = shape.executor_threads
    return slots_over_hold(
        threads, hold, "executor", f"executor: {threads:g} threads / ({hold.source}) = per request {hold.ms:.0f} ms"
    )
