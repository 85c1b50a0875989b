"""Which setting sizes each limit the lab names, defined once: a model's limit (its `predicted_by`) or a wait site
(wait_sites.KNOWN_SITES' names, wait_profile.QUEUED_SITE) → the lab's own parameter for its thread-service, and the
standard Spring Boot property or JVM flag for a user's jar (APP). A limit with no setting says what sizes it instead
(code to change, or the machine), so a prescription (prescription.py) stops there and says why."""

from __future__ import annotations

from dataclasses import dataclass

from loadlab.analysis.prediction import limit_name
from loadlab.analysis.wait_profile import QUEUED_SITE
from loadlab.core.app import HIKARI_SIZE_PROPERTY
from loadlab.core.client import APACHE, REACTOR

# Apache HttpClient 5's pool under Spring Boot: no property sizes it (Boot 4 sets none, MACHINE-NOTES 12-01), only a
# customizer in code, as the thread-service's own DelayServiceClientConfiguration does.
APACHE_CUSTOMIZER = (
    "a ClientHttpRequestFactoryBuilder bean: ClientHttpRequestFactoryBuilder.httpComponents()"
    ".withConnectionManagerCustomizer(m -> m.setMaxConnPerRoute(N).setMaxConnTotal(N))"
)


@dataclass(frozen=True)
class Setting:
    """What sizes one limit. parameter: the lab's own (None: the lab has none); app: the Spring property or JVM flag
    that sizes it in a user's jar (None: none exists, `code` says what does); unit: what one slot is; own_use: the
    wait site where a holder of the pool uses it (a holder found waiting elsewhere holds it across another wait)."""

    name: str  # how the lab names the limit (limit_met_first, the page)
    unit: str
    parameter: str | None = None
    app: str | None = None
    code: str | None = None
    own_use: str | None = None


HIKARI = HIKARI_SIZE_PROPERTY  # core/app.py reads it off APP_ARGS for the run's PostgreSQL
SETTINGS: dict[str, Setting] = {
    "little": Setting(limit_name("little"), "threads", "PLATFORM_THREADS", "server.tomcat.threads.max"),
    "pool": Setting(limit_name("pool"), "connections", "DB_POOL", HIKARI, own_use="PostgreSQL (the query's answer)"),
    f"client_pool:{APACHE}": Setting(
        limit_name("client_pool"),
        "connections per route",
        "CLIENT_POOL",
        code=APACHE_CUSTOMIZER,
        own_use="Apache HttpClient's call",
    ),
    f"client_pool:{REACTOR}": Setting(
        limit_name("client_pool"),
        "connections per route",
        "CLIENT_POOL",
        "-Dreactor.netty.pool.maxConnections",
        own_use="Reactor Netty's call",
    ),
    "connections": Setting(
        limit_name("connections"),
        "connections",
        "MAX_CONNECTIONS",
        "server.tomcat.max-connections (and server.tomcat.accept-count, the backlog beyond it)",
    ),
    "executor": Setting(limit_name("executor"), "threads", "FANOUT_POOL", code="the executor's size, in code"),
    # An app's own pool no setting sizes (a Semaphore's permits, a limiter's size): its size is in the code that
    # creates it; the prescription still gives the size Little's law asks for (prescription.py).
    "measured_pool": Setting(
        limit_name("measured_pool"), "permits", code="the size the code gives it (new Semaphore(N))"
    ),
    "limit": Setting(
        limit_name("limit"),
        "calls at once",
        "VIRTUAL_LIMIT",
        code="@ConcurrencyLimit's limit on the method, in code",
    ),
    "memory": Setting(
        limit_name("memory"), "MB", "SERVICE_MEMORY_MB", "-Xmx (the heap), or the container's memory limit"
    ),
    "cpu": Setting(
        limit_name("cpu"),
        "cores",
        code="the cores: no setting lifts them on this machine; a host with more (`make plan` names the one that "
        "carries the rate)",
    ),
    "pinned": Setting(
        limit_name("pinned"),
        "carriers",
        code="the synchronized block the virtual threads block in (a ReentrantLock there), or JDK 24 or later "
        "(JEP 491: JDKS=25)",
    ),
    "threads": Setting(
        "threads",
        "threads",
        code="the host's thread limits (pid_max, max_map_count, the cgroup's pids.max): a larger host, or virtual "
        "threads",
    ),
}
# The profile's sites that a setting sizes: the site's name as wait_sites names it (its start) → the limit above.
SITE_LIMITS = (
    ("HikariCP's connection pool", "pool"),
    ("Apache HttpClient's connection pool", f"client_pool:{APACHE}"),
    ("Reactor Netty's call", f"client_pool:{REACTOR}"),
    ("the fan-out's executor", "executor"),
    ("Spring's concurrency limit", "limit"),
)


def of_model(predicted_by: str, client: str | None) -> Setting | None:
    """The setting of a model's limit; a pooled client's by which client it is."""
    key = f"{predicted_by}:{client}" if predicted_by == "client_pool" else predicted_by
    return SETTINGS.get(key)


def limit_of_site(site: str, platform: bool) -> str | None:
    """The limit a wait site is (a key of SETTINGS), or None for a site no setting sizes (a monitor, a lock, a
    Semaphore, a class loader's cache). Tomcat's queue is the platform pool's; a virtual mode has none."""
    if site == QUEUED_SITE:
        return "little" if platform else None
    return next((key for start, key in SITE_LIMITS if site.startswith(start)), None)
