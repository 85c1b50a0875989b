"""Where a sampled request thread was: each known limit's stack placed in its category and named by its resource."""

from loadlab.analysis import wait_sites
from loadlab.analysis.wait_sites import DOWNSTREAM, MONITOR, OTHER, PINNED, POOL, READY, RUNNING, Sample

TOMCAT = "java.lang.Thread.run;org.apache.tomcat.util.threads.TaskThread$WrappingRunnable.run;" + (
    "org.apache.coyote.http11.Http11Processor.service;org.apache.catalina.connector.CoyoteAdapter.service;"
    "jakarta.servlet.http.HttpServlet.service;app.Controller.get"
)
VIRTUAL = "java.lang.VirtualThread.run;" + TOMCAT.split(";", 1)[1]
PARK = "java.util.concurrent.locks.LockSupport.park;jdk.internal.misc.Unsafe.park"


def place(kind, state, stack, blocker="-"):
    sample = Sample(kind, state, blocker, stack)
    assert wait_sites.is_request(sample)
    return wait_sites.place(sample)


def test_an_idle_pool_thread_is_not_a_request():
    idle = Sample("platform", "WAITING", "-", "java.lang.Thread.run;org.apache.tomcat.util.threads.TaskQueue.take")
    assert not wait_sites.is_request(idle)


def test_hikaris_pool_is_named_by_its_class_on_both_kinds_of_thread():
    stack = "com.zaxxer.hikari.HikariDataSource.getConnection;com.zaxxer.hikari.pool.HikariPool.getConnection;"
    stack += "com.zaxxer.hikari.util.ConcurrentBag.borrow;java.util.concurrent.SynchronousQueue.poll;" + PARK
    for kind, root in (("platform", TOMCAT), ("virtual", VIRTUAL)):
        where = place(kind, "TIMED_WAITING", f"{root};{stack}")
        assert (where.category, where.site) == (POOL, "HikariCP's connection pool (HikariPool)")


def test_apaches_lease_is_its_pool_and_its_socket_read_the_downstream():
    lease = "org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager$1.get;"
    lease += "org.apache.hc.core5.concurrent.BasicFuture.get;java.lang.Object.wait;java.lang.Object.wait0"
    where = place("virtual", "WAITING", f"{VIRTUAL};org.apache.hc.client5.http.classic.InternalExec.execute;{lease}")
    assert where.category == POOL and "PoolingHttpClientConnectionManager" in where.site
    read = "org.apache.hc.core5.http.impl.io.SessionInputBufferImpl.fillBuffer;java.net.Socket$SocketInputStream.read;"
    read += "sun.nio.ch.NioSocketImpl.read;sun.nio.ch.NioSocketImpl.park;java.lang.VirtualThread.park"
    where = place("virtual", "WAITING", f"{VIRTUAL};org.apache.hc.client5.http.classic.InternalExec.execute;{read}")
    assert (where.category, where.site) == (DOWNSTREAM, "Apache HttpClient's call")


def test_the_jdk_clients_call_waits_on_the_downstream_not_on_other():
    stack = f"{VIRTUAL};org.springframework.http.client.JdkClientHttpRequest.executeInternal;"
    stack += "java.util.concurrent.CompletableFuture.get;java.util.concurrent.locks.LockSupport.park;"
    stack += "java.lang.VirtualThread.park"
    where = place("virtual", "WAITING", stack)
    assert (where.category, where.site) == (DOWNSTREAM, "the JDK HttpClient's call")


def test_a_semaphore_is_named_with_the_code_that_took_it():
    stack = f"{VIRTUAL};app.Limiter.call;java.util.concurrent.Semaphore.acquire;{PARK}"
    where = place("virtual", "WAITING", stack, "java.util.concurrent.Semaphore$NonfairSync")
    assert (where.category, where.site) == (POOL, "a Semaphore in app.Limiter.call")


def test_a_monitor_a_pinned_carrier_and_a_runnable_virtual_thread():
    blocked = place("platform", "BLOCKED", f"{TOMCAT};app.Cache.refresh", "java.lang.Object")
    assert (blocked.category, blocked.site) == (MONITOR, "a monitor (java.lang.Object) in app.Cache.refresh")
    # JDK 21: a virtual thread that parks inside synchronized parks its carrier (no state in the dump)
    pinned = place("virtual", "-", f"{VIRTUAL};app.Cache.refresh;java.lang.VirtualThread.parkOnCarrierThread")
    assert pinned.category == PINNED
    # JDK 25: mounted and waiting is a carrier held
    assert place("virtual-mounted", "WAITING", f"{VIRTUAL};app.Native.call").category == PINNED
    assert place("virtual", "RUNNABLE", f"{VIRTUAL};app.Work.compute").category == READY
    assert place("virtual-mounted", "RUNNABLE", f"{VIRTUAL};app.Work.compute").category == RUNNING
    assert place("platform", "RUNNABLE", f"{TOMCAT};app.Work.compute") == wait_sites.Place(RUNNING, "app.Work.compute")


def test_an_unknown_wait_is_named_by_its_first_frame_outside_the_jdk():
    where = place("platform", "WAITING", f"{TOMCAT};app.Mailbox.take;{PARK}")
    assert (where.category, where.site) == (OTHER, "app.Mailbox.take")


def test_a_virtual_thread_started_and_never_run_is_a_request_waiting_for_a_carrier():
    unstarted = Sample("virtual", "RUNNABLE", "-", "")
    assert wait_sites.is_request(unstarted)
    assert wait_sites.place(unstarted) == wait_sites.Place(READY, "a virtual thread not started yet")
    # JDK 21 says neither kind nor state: a thread without a stack is not placed (the queued count holds it)
    assert not wait_sites.is_request(Sample("-", "-", "-", ""))


def test_a_fan_outs_join_names_platforms_executor_as_a_pool_and_a_scopes_calls_as_the_downstream():
    joined = "java.util.concurrent.CompletableFuture.get;java.util.concurrent.CompletableFuture.timedGet;" + PARK
    where = place("platform", "TIMED_WAITING", f"{TOMCAT};loadlab.thread.fanout.PlatformExecutorFanOut.run;{joined}")
    assert (where.category, where.site) == (POOL, "the fan-out's executor (FANOUT_POOL), its calls joined")
    scope = "java.util.concurrent.StructuredTaskScopeImpl.join;java.lang.VirtualThread.park"
    where = place("virtual", "WAITING", f"{VIRTUAL};loadlab.fanout.preview.StructuredScopeFanOut.run;{scope}")
    assert (where.category, where.site) == (DOWNSTREAM, "its fan-out's calls (a StructuredTaskScope)")
