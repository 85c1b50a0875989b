"""CLIENT and CLIENT_POOL: the HTTP client the thread-service calls its downstream through (`delay-service.client`:
jdk, apache or reactor, each as Spring Boot builds it) and a pooled client's connections per route
(`delay-service.client-pool`; empty: the client's own default). Their checks, the service's arguments, the live
config's check of what it ran, the pool the `client_pool` model reads, and what a 503 means then. Standard library
only, like params.py, which reads PARAMS.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from loadlab.core import metrics, reactive
from loadlab.core.asked import Asked
from loadlab.core.param_parsers import checked_by
from loadlab.core.run_params import RunParams

JDK, APACHE, REACTOR = "jdk", "apache", "reactor"
CLIENTS = (JDK, APACHE, REACTOR)
POOL_MAX = 100000
# The clients' own pools: Apache HttpClient 5's PoolingHttpClientConnectionManager leases 5 connections per route
# (25 in all); Reactor Netty's ConnectionProvider 2 x max(cores, 8), cores as the service's JVM sees them.
APACHE_DEFAULT_PER_ROUTE = 5
APACHE_DEFAULT_TOTAL = 25
REACTOR_MIN_CORES = 8
# The reactive service's client, as its live config names it: it ignores CLIENT.
WEBCLIENT = "webclient"


class ClientError(ValueError):
    """A bad CLIENT or CLIENT_POOL; the message is the one line the user sees."""


def parse_client(raw: str) -> str:
    value = raw.strip()
    if value not in CLIENTS:
        raise ClientError(f"CLIENT={raw!r} is not allowed; allowed: {' | '.join(CLIENTS)}")
    return value


def parse_pool(raw: str) -> int | None:
    allowed = f"allowed: empty (the client's own default), or 1..{POOL_MAX} with CLIENT=apache or reactor"
    if not raw.strip():
        return None
    try:
        value = int(raw.strip())
    except ValueError:
        raise ClientError(f"CLIENT_POOL={raw!r} is not a whole number; {allowed}") from None
    if not 1 <= value <= POOL_MAX:
        raise ClientError(f"CLIENT_POOL={value} is out of range; {allowed}")
    return value


# Rows of params.Param: name, default, help, parser, allowed.
PARAMS = (
    (
        "CLIENT",
        JDK,
        "the thread-service's HTTP client for its downstream call, as Spring Boot builds it: jdk (the JDK's "
        "HttpClient, no pool cap), apache (Apache HttpClient 5: 5 connections per route) or reactor (Reactor Netty: "
        "2 x max(cores, 8)); a call that gets no pooled connection in time is answered 503",
        checked_by(parse_client, ClientError),
        " | ".join(CLIENTS),
    ),
    (
        "CLIENT_POOL",
        "",
        "with CLIENT=apache or reactor: the client's connections per route (apache: max total max(N, 25)); empty: "
        "the client's own default",
        checked_by(parse_pool, ClientError),
        f"empty, or 1..{POOL_MAX} with CLIENT=apache or reactor",
    ),
)
NAMES = tuple(p[0] for p in PARAMS)


def cross_checks(v: RunParams) -> list[str]:
    """One line per refusal: a pool for the JDK's client (it has none), a client for a user's jar (the lab cannot
    change it), a client for the reactive service alone (it always calls through WebClient on Reactor Netty)."""
    client, pool = v.client, v.client_pool
    errors = []
    if client == JDK and pool is not None:
        errors.append(
            f"CLIENT_POOL={pool} sets a pool but CLIENT=jdk has none (the JDK's HttpClient has no connection cap); "
            "allowed: CLIENT_POOL empty with CLIENT=jdk, or CLIENT=apache or reactor"
        )
    if client != JDK and v.app:
        errors.append(
            f"CLIENT={client} cannot change the client of APP={v.app!r} (a user's jar keeps its own); allowed: "
            "CLIENT=jdk with APP"
        )
    modes = v.modes
    if client != JDK and modes and all(m == reactive.REACTIVE for m in modes):
        errors.append(
            f"CLIENT={client} has no effect on MODES='{' '.join(modes)}' (the reactive service always calls through "
            "WebClient on Reactor Netty); allowed: CLIENT=jdk with reactive alone, or a thread mode in MODES"
        )
    return errors


def thread_service_args(values: RunParams) -> list[str]:
    """The thread-service's Spring properties (the reactive service reads neither)."""
    args = [f"--delay-service.client={values.client}"]
    if values.client_pool is not None:
        args.append(f"--delay-service.client-pool={values.client_pool}")
    return args


def mismatches(live: Mapping[str, object], params: RunParams | Asked) -> list[str]:
    """Why the service did not run the client asked for (nothing where it did not say: an APP, a run from before
    CLIENT, the reactive service's WebClient)."""
    ran = live.get(metrics.DOWNSTREAM_CLIENT)
    if ran is None or ran == WEBCLIENT:
        return []
    asked = params.client
    if ran != asked:
        return [f"the thread-service called its downstream through the {ran} client, not CLIENT={asked}"]
    pool, got = params.client_pool, live.get(metrics.DOWNSTREAM_CLIENT_POOL_PER_ROUTE)
    if pool is not None and isinstance(got, int | float) and got != pool:
        return [f"the {ran} client's pool had {got:.0f} connections per route, not CLIENT_POOL={pool}"]
    return []


@dataclass(frozen=True)
class Pool:
    """A pooled client's connections per route (the lab calls one route) and how that number was reached."""

    slots: float
    source: str


def pool(mode: str, live: Mapping[str, object], params: RunParams | Asked, cores: float | None) -> Pool | None:
    """The pool the `client_pool` model reads: what the service reported, else CLIENT_POOL, else the client's own
    default; None for the JDK's client (no cap), the reactive service, or an APP."""
    client = params.client
    if client == JDK or mode == reactive.REACTIVE or params.app:
        return None
    reported = live.get(metrics.DOWNSTREAM_CLIENT_POOL_PER_ROUTE)
    if isinstance(reported, int | float) and reported > 0:
        return Pool(float(reported), f"CLIENT={client}, its pool as the service reported it")
    if params.client_pool is not None:
        return Pool(float(params.client_pool), f"CLIENT={client}, CLIENT_POOL")
    if client == APACHE:
        return Pool(float(APACHE_DEFAULT_PER_ROUTE), "CLIENT=apache, its default per route")
    if not cores:
        return None
    seen = max(cores, REACTOR_MIN_CORES)
    return Pool(2.0 * seen, f"CLIENT=reactor, its default 2 x max({cores:g} cores, {REACTOR_MIN_CORES})")


def kind_meaning(params: RunParams | Asked) -> str | None:
    """What a 503 means when a pooled client is the only thing that answers one (no database pool in the scenario):
    the service's problem type is delay-service-client-pool-full. None where a 503 may have another cause."""
    client = params.client
    if client == JDK or "db" in params.scenario:
        return None
    return (
        f"503 from the service: no connection of its HTTP client's pool (CLIENT={client}) came free in time "
        "(problem type delay-service-client-pool-full), a limit of the service, not of the downstream"
    )
