"""MODES=reactive's live-config check: the requests were served on Netty's event loops, with no Tomcat request pool
and no virtual threads, proved from what the service and its host gave (its /actuator/loadlab at start, its threads
by name on the host, request_pool.csv, and its flight recording's count of virtual threads started). Reads raw files
only; the reasons join the mode's other config mismatches, so a reactive column that did not run reactively is never
judged as one."""

from __future__ import annotations

from loadlab.core import metrics
from loadlab.core.reactive import EVENT_LOOP_PREFIXES
from loadlab.summary.judge import appcheck
from loadlab.summary.reading.raw import RawMode
from loadlab.summary.reading.values import as_float

LOOPS = " or ".join(f"{prefix}…" for prefix in EVENT_LOOP_PREFIXES)


def config_mismatches(raw: RawMode, requests: int) -> list[str]:
    reasons = []
    pool = as_float(raw.live_config.get(metrics.TOMCAT_THREADS_MAX))
    if pool is not None and pool >= 0:
        reasons.append(f"the service ran Tomcat's request pool ({pool:.0f} threads), not Netty's event loops")
    named = [r.named_threads for r in raw.request_pool.values()]
    loops = [n for n in named if n is not None]
    if not loops:
        reasons.append(
            f"the service's threads were not sampled by name, so nothing shows its requests ran on Netty's event "
            f"loops ({LOOPS})"
        )
    elif requests > 0 and max(loops) == 0:
        reasons.append(f"no Netty event loop ({LOOPS}) ran in the service: it did not serve reactively")
    started = appcheck.evidence(raw).virtual_threads_started
    if requests > 0 and started is not None and started >= appcheck.VIRTUAL_STARTS_PER_REQUEST_MIN * requests:
        reasons.append(f"the service ran requests on virtual threads ({started:,} started for {requests:,} requests)")
    return reasons
