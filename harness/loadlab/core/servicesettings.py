"""The thread-service's settings that follow a run parameter one to one, as Spring command-line properties.

`server.tomcat.max-connections` (MAX_CONNECTIONS) is Spring Boot's own, so it means the same for any Boot app
measured in the thread-service's place; `threadlocal.kb` (THREADLOCAL_KB) and `delay-service.client`/`client-pool`
(CLIENT, CLIENT_POOL: core/client.py) are the lab's thread-service's alone. What the service really ran with is read
back from /actuator/loadlab (tomcat_max_connections, threadlocal_kb, downstream_client and its pool) and compared by
the verdict (`mismatches`).
"""

from __future__ import annotations

from collections.abc import Mapping

from loadlab.core import client, metrics
from loadlab.core.asked import Asked
from loadlab.core.run_params import RunParams


def tomcat_args(values: RunParams) -> list[str]:
    """Tomcat's connection cap, the same in both thread modes."""
    return [f"--server.tomcat.max-connections={values.max_connections}"]


def thread_service_args(values: RunParams) -> list[str]:
    """Every setting of the lab's thread-service that a parameter gives directly."""
    return [*tomcat_args(values), f"--threadlocal.kb={values.threadlocal_kb}", *client.thread_service_args(values)]


def mismatches(live: Mapping[str, object], params: RunParams | Asked) -> list[str]:
    """Why the service did not run what these parameters asked for (nothing where it did not say, or a run from
    before the parameter existed)."""
    reasons = []
    for name, given, field, what in (
        ("MAX_CONNECTIONS", params.max_connections, metrics.TOMCAT_MAX_CONNECTIONS, "Tomcat's max-connections was"),
        ("THREADLOCAL_KB", params.threadlocal_kb, metrics.THREADLOCAL_KB, "the per-thread object had"),
    ):
        asked, got = _number(given), _number(live.get(field))
        # -1: the service has no such setting (reactive-service has no connection cap), nothing to compare.
        if asked is not None and got is not None and got >= 0 and asked != got:
            unit = " KB" if name == "THREADLOCAL_KB" else ""
            reasons.append(f"{what} {got:.0f}{unit}, not {name}={asked:.0f}")
    return reasons + client.mismatches(live, params)


def _number(value: object) -> float | None:
    try:
        return float(value) if isinstance(value, (int, float, str)) and not isinstance(value, bool) else None
    except (TypeError, ValueError):
        return None
