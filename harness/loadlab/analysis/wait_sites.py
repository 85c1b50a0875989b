"""Where a sampled request thread was: the one rule that turns a thread dump's facts (what ran it, its state, what it
waited on, its stack) into a category of the wait profile and the site that names the resource.

The wait agent (wait-agent/, a -javaagent on the service under test) writes the facts only; this module decides.
A site is the first frame from the top of the stack that names a resource — a library's or the app's class, not
the JDK's internals — or, for the resources every team meets (a JDBC pool, an HTTP client's pool, a semaphore, the
downstream's socket), the resource's own name from KNOWN_SITES.
"""

from __future__ import annotations

from dataclasses import dataclass

# The categories, in the order the page stacks them. QUEUED is not sampled: it is the requests in flight at the
# service that no request thread held (summary/reading/waits.py), Tomcat's queue or a virtual thread not yet started.
RUNNING = "running"
READY = "ready"
DOWNSTREAM = "downstream"
POOL = "pool"
MONITOR = "monitor"
PINNED = "pinned"
OTHER = "other"
QUEUED = "queued"
CATEGORIES = (QUEUED, POOL, MONITOR, PINNED, READY, RUNNING, DOWNSTREAM, OTHER)
CATEGORY_WORDS = {
    RUNNING: "running on a CPU",
    READY: "ready to run, waiting for a carrier",
    DOWNSTREAM: "waiting on the downstream",
    POOL: "waiting for a pooled resource",
    MONITOR: "waiting on a monitor or lock",
    PINNED: "pinned to its carrier",
    OTHER: "waiting (other)",
    QUEUED: "queued before a thread took it",
}

# A thread handling a request: any servlet container's dispatch (Tomcat's adapter, the servlet API).
REQUEST_FRAMES = ("org.apache.catalina.connector.CoyoteAdapter.service", "jakarta.servlet.http.HttpServlet.service")

# Frames of the JDK (and the JVM's own) that never name a resource.
JDK_PREFIXES = ("java.", "javax.", "jdk.", "sun.", "com.sun.")

# A blocking read on a socket: the thread waits for the peer (the downstream, or the database).
SOCKET_READ_FRAMES = (
    "sun.nio.ch.NioSocketImpl.read",
    "sun.nio.ch.NioSocketImpl.park",
    "sun.nio.ch.SocketDispatcher.read",
    "sun.nio.ch.Net.poll",
    "java.net.SocketInputStream.read",
)

PARK_FRAMES = (
    "jdk.internal.misc.Unsafe.park",
    "java.lang.VirtualThread.park",
    "java.lang.VirtualThread.parkNanos",
    "java.lang.Object.wait",
    "java.lang.Object.wait0",
    "java.lang.Thread.sleep",
)
PINNED_FRAME = "java.lang.VirtualThread.parkOnCarrierThread"
WAITING_STATES = ("WAITING", "TIMED_WAITING", "BLOCKED")


@dataclass(frozen=True)
class KnownSite:
    frame: str  # a frame's start: package, class or method
    category: str
    name: str


# Searched from the top of a waiting thread's stack; the first frame that matches names the site. Pools come before
# the client that holds them: a request parked in Apache HttpClient's lease is waiting for a connection, not for the
# downstream's answer.
KNOWN_SITES = (
    KnownSite("com.zaxxer.hikari.pool.HikariPool.getConnection", POOL, "HikariCP's connection pool (HikariPool)"),
    KnownSite(
        "org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager",
        POOL,
        "Apache HttpClient's connection pool (PoolingHttpClientConnectionManager)",
    ),
    KnownSite(
        "org.apache.hc.core5.pool.", POOL, "Apache HttpClient's connection pool (PoolingHttpClientConnectionManager)"
    ),
    KnownSite("org.springframework.util.ConcurrencyThrottleSupport", POOL, "Spring's concurrency limit"),
    KnownSite("java.util.concurrent.Semaphore.acquire", POOL, "a Semaphore"),
    KnownSite("java.util.concurrent.locks.ReentrantLock.lock", MONITOR, "a ReentrantLock"),
    KnownSite(
        "reactor.core.publisher.BlockingSingleSubscriber.blockingGet",
        DOWNSTREAM,
        "Reactor Netty's call (a pooled connection or the answer: a blocked caller cannot tell which)",
    ),
    KnownSite("jdk.internal.net.http.HttpClientImpl.send", DOWNSTREAM, "the JDK HttpClient's call"),
    KnownSite("org.springframework.http.client.JdkClientHttpRequest", DOWNSTREAM, "the JDK HttpClient's call"),
    KnownSite("org.apache.hc.client5.", DOWNSTREAM, "Apache HttpClient's call"),
    KnownSite("org.postgresql.", DOWNSTREAM, "PostgreSQL (the query's answer)"),
    # SCENARIO=fanout (thread-service loadlab.thread.fanout): a request joined on its calls. On platform threads the
    # calls queue for the executor's threads (FANOUT_POOL), a pool; in a scope each call has its own virtual thread.
    KnownSite(
        "loadlab.thread.fanout.PlatformExecutorFanOut", POOL, "the fan-out's executor (FANOUT_POOL), its calls joined"
    ),
    KnownSite(
        "loadlab.fanout.preview.StructuredScopeFanOut", DOWNSTREAM, "its fan-out's calls (a StructuredTaskScope)"
    ),
    KnownSite(
        "loadlab.thread.fanout.VirtualExecutorFanOut", DOWNSTREAM, "its fan-out's calls (virtual-thread futures)"
    ),
)


@dataclass(frozen=True)
class Sample:
    """One line of the agent's file: `count` threads of one second's samples with these facts."""

    kind: str  # platform | virtual | virtual-mounted | - (JDK 21: a platform thread or a virtual one not yet run)
    state: str  # Thread.State's name, "-" when the dump gives none (JDK 21)
    blocker: str  # the class it parked on or waits to enter, "-" when none
    stack: str  # root first, frames joined by ";"


@dataclass(frozen=True)
class Place:
    category: str
    site: str


def frames_top_first(stack: str) -> list[str]:
    return stack.split(";")[::-1] if stack else []


def is_request(sample: Sample) -> bool:
    """A thread handling a request; on JDK 25 also a virtual thread started and never yet run (no stack, no carrier):
    Tomcat starts one per request, and under a CPU limit they queue for the carriers. (JDK 21's dump cannot tell
    such a thread from a platform one: those requests count among the queued, summary/reading/waits.py.)"""
    if sample.kind == "virtual" and sample.state == "RUNNABLE" and not sample.stack:
        return True
    return any(f.startswith(REQUEST_FRAMES) for f in sample.stack.split(";"))


def place(sample: Sample) -> Place:
    """Where one request thread was (is_request(sample) holds)."""
    frames = frames_top_first(sample.stack)
    virtual = sample.kind.startswith("virtual")
    if PINNED_FRAME in frames or (sample.kind == "virtual-mounted" and sample.state in WAITING_STATES):
        return Place(PINNED, _known_or_first(frames) or "a carrier")
    if sample.state == "BLOCKED":
        return Place(MONITOR, _monitor_site(sample, frames))
    if any(f.startswith(SOCKET_READ_FRAMES) for f in frames[:6]):
        return Place(DOWNSTREAM, _known_or_first(frames, DOWNSTREAM) or "a socket read")
    parked = bool(frames) and frames[0].startswith(PARK_FRAMES) or sample.state in WAITING_STATES[:2]
    if parked:
        known = _known(frames)
        if known is not None:
            return Place(known.category, _named(known, frames))
        return Place(OTHER, _first_resource(frames) or frames[0])
    if virtual and sample.kind != "virtual-mounted" and sample.state != "-":
        return Place(READY, _first_resource(frames) or "a virtual thread not started yet")
    return Place(RUNNING, _first_resource(frames) or (frames[0] if frames else "?"))


def taker(sample: Sample) -> str | None:
    """The code that took a generic JDK pool a request thread waits on (a Semaphore: the first frame outside the JDK
    below its acquire), or None when the thread is not waiting on such a pool. Every request thread with that frame
    on its stack and not waiting there holds a permit (summary/measured_pool.py counts them)."""
    frames = frames_top_first(sample.stack)
    known = _known(frames)
    if known is None or known.category != POOL or not known.frame.startswith(JDK_PREFIXES):
        return None
    if place(sample).category != POOL:
        return None
    return _first_resource(frames)


def _known(frames: list[str]) -> KnownSite | None:
    for frame in frames:
        for site in KNOWN_SITES:
            if frame.startswith(site.frame):
                return site
    return None


def _named(site: KnownSite, frames: list[str]) -> str:
    """A generic JDK resource (a Semaphore, a lock) is named with the code that took it."""
    if not site.frame.startswith(JDK_PREFIXES):
        return site.name
    caller = _first_resource(frames)
    return f"{site.name} in {caller}" if caller else site.name


def _known_or_first(frames: list[str], category: str | None = None) -> str | None:
    known = _known(frames)
    if known is not None and (category is None or known.category == category):
        return _named(known, frames)
    return _first_resource(frames)


def _first_resource(frames: list[str]) -> str | None:
    return next((f for f in frames if not f.startswith(JDK_PREFIXES)), None)


def _monitor_site(sample: Sample, frames: list[str]) -> str:
    code = _first_resource(frames) or "?"
    return f"a monitor ({sample.blocker}) in {code}" if sample.blocker != "-" else f"a monitor in {code}"
