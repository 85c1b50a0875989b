"""Before a fine pass the service under test must have served the backlog of the collapse, seen idle in
DRAIN_QUIET_READS readings in a row: the thread-service by its own count (no request in flight, none queued in
Tomcat), an APP by its answer time to APP_PATH (it has no count of requests in flight). Draining rather than
restarting keeps the same JVM, warm (a restart would need the whole warm-up again, and a JIT in another state could
move the knee the fine pass is meant to localise). A service that has not drained within DRAIN_TIMEOUT_S is not
refined (the reason is kept).

Nothing waits after the drain: what the backlog's end left running (GC, compilation) finishes during the fine
pass's own warm-up at half its first rate (analysis/refine.py), which is not measured."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TypeVar

from loadlab.core.metrics import INFLIGHT_REQUESTS, TOMCAT_QUEUE_SIZE
from loadlab.run import appservice
from loadlab.run.context import Run
from loadlab.run.liveconfig import read_thread_metrics

T = TypeVar("T")  # what a reading holds: the service's metrics, or an app's answer

DRAIN_TIMEOUT_S = 60
DRAIN_POLL_S = 0.5
DRAIN_QUIET_READS = 2


def is_idle(reading: Mapping[str, object]) -> bool:
    """Nothing in flight and nothing queued (virtual mode has no Tomcat queue: -1, or no field)."""
    queued = reading.get(TOMCAT_QUEUE_SIZE)
    return reading.get(INFLIGHT_REQUESTS) == 0 and (not isinstance(queued, (int, float)) or queued <= 0)


def wait_quiet(read: Callable[[], tuple[bool, T]]) -> tuple[bool, T | None]:
    """Reads until DRAIN_QUIET_READS readings in a row are idle or DRAIN_TIMEOUT_S passed: (drained, last reading)."""
    deadline = time.monotonic() + DRAIN_TIMEOUT_S
    quiet, last = 0, None
    while time.monotonic() < deadline:
        idle, last = read()
        quiet = quiet + 1 if idle else 0
        if quiet >= DRAIN_QUIET_READS:
            return True, last
        time.sleep(DRAIN_POLL_S)
    return False, last


def drain(run: Run) -> str | None:
    """Waits until the service under test has served every request of the collapse; None when it has, else why
    not."""
    if run.service.app:
        drained, answer = wait_quiet(lambda: appservice.answers_quickly(run, DRAIN_TIMEOUT_S))
        return None if drained else appservice.still_slow(run, answer, DRAIN_TIMEOUT_S)

    def read() -> tuple[bool, dict[str, object]]:
        reading = read_thread_metrics(run)
        return is_idle(reading), reading

    drained, last = wait_quiet(read)
    if drained:
        return None
    if not last:
        return f"the thread-service's /actuator/loadlab did not answer for {DRAIN_TIMEOUT_S} s after the last pass"
    return (
        f"the thread-service still had {last.get(INFLIGHT_REQUESTS)} requests in flight and "
        f"{last.get(TOMCAT_QUEUE_SIZE)} queued {DRAIN_TIMEOUT_S} s after the last pass: its backlog would have "
        f"poisoned a fine pass"
    )
