"""What MODES=reactive (reactive-service: the thread-service's requests on WebFlux and Netty) cannot run, refused
before anything starts. Standard library only, like params.py, which calls it."""

from __future__ import annotations

from loadlab.core.run_params import RunParams

REACTIVE = "reactive"
# The reactive service's event loops by their Linux thread name (Linux keeps 15 characters): Reactor Netty's own
# resources name them reactor-http-epoll-N (the jar), Boot's webflux-http-epoll-N when it makes them (seen in its
# tests). The host's sampler counts either; the live-config check requires them (summary/judge/reactivecheck.py).
EVENT_LOOP_PREFIXES = ("reactor-http-", "webflux-http-")


def cross_checks(v: RunParams) -> list[str]:
    """One line per refusal: SCENARIO=pinned (a monitor held across a blocking call has no non-blocking form) and
    APP (a user's jar replaces the thread-service; it has no reactive twin to run in its place)."""
    if REACTIVE not in v.modes:
        return []
    modes = " ".join(v.modes)
    errors = []
    if v.scenario == "pinned":
        errors.append(
            f"SCENARIO=pinned has no reactive form (it holds a monitor across a blocking call) but MODES='{modes}' "
            "runs reactive; allowed: SCENARIO http, db or cpu with reactive, or MODES without reactive"
        )
    if v.app:
        errors.append(
            f"APP={v.app!r} replaces the thread-service and has no reactive form, but MODES='{modes}' runs "
            "reactive; allowed: MODES of platform and/or virtual with APP"
        )
    return errors
