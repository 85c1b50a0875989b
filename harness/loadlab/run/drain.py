"""Before a fine pass the thread-service must have served the backlog of the collapse: no request in flight and none
queued in Tomcat, in DRAIN_QUIET_READS readings in a row. Draining rather than restarting keeps the same JVM, warm (a
restart would need the whole warm-up again, and a JIT in another state could move the knee the fine pass is meant to
localise). A service that has not drained within DRAIN_TIMEOUT_S is not refined (the reason is kept)."""

from __future__ import annotations

import time

from loadlab.core.metrics import INFLIGHT_REQUESTS, TOMCAT_QUEUE_SIZE
from loadlab.run import appservice
from loadlab.run.context import Run
from loadlab.run.liveconfig import read_thread_metrics

DRAIN_TIMEOUT_S = 60
DRAIN_POLL_S = 0.5
DRAIN_QUIET_READS = 2
# After the drain, seconds for what the backlog's end left running (GC, compilation) to finish.
DRAIN_SETTLE_S = 2


def is_idle(reading: dict) -> bool:
    """Nothing in flight and nothing queued (virtual mode has no Tomcat queue: -1, or no field)."""
    queued = reading.get(TOMCAT_QUEUE_SIZE)
    return reading.get(INFLIGHT_REQUESTS) == 0 and (not isinstance(queued, (int, float)) or queued <= 0)


def drain(run: Run) -> str | None:
    """Waits until the thread-service has served every request of the collapse; None when it has, else why not."""
    if run.values.get("APP"):
        return appservice.drain(run)  # an APP has no /actuator/loadlab: its own answer times tell
    deadline = time.monotonic() + DRAIN_TIMEOUT_S
    quiet, last = 0, {}
    while time.monotonic() < deadline:
        last = read_thread_metrics(run)
        quiet = quiet + 1 if is_idle(last) else 0
        if quiet >= DRAIN_QUIET_READS:
            time.sleep(DRAIN_SETTLE_S)
            return None
        time.sleep(DRAIN_POLL_S)
    if not last:
        return f"the thread-service's /actuator/loadlab did not answer for {DRAIN_TIMEOUT_S} s after the last pass"
    return (
        f"the thread-service still had {last.get(INFLIGHT_REQUESTS)} requests in flight and "
        f"{last.get(TOMCAT_QUEUE_SIZE)} queued {DRAIN_TIMEOUT_S} s after the last pass: its backlog would have "
        f"poisoned a fine pass"
    )
