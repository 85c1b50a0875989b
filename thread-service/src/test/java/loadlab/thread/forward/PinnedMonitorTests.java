package loadlab.thread.forward;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import loadlab.thread.support.Http;
import loadlab.thread.support.StubbedServiceTests;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * Platform mode, where the JVM can show which monitors a request thread holds: /pinned really holds one during its
 * downstream call, a different one per request (two requests hold theirs at the same time, so they never take
 * turns), and /forward holds none. Virtual threads are invisible to ThreadMXBean, hence platform mode here; the
 * virtual-mode side is in CpuAndPinnedTests.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "management.server.port=0", "thread-mode=platform" })
class PinnedMonitorTests extends StubbedServiceTests {

    /** The monitors request threads hold right now in the pinned handler. */
    private static List<MonitorInfo> monitorsHeldInPinned() {
        ThreadInfo[] threads = ManagementFactory.getThreadMXBean().dumpAllThreads(true, false);
        return Arrays.stream(threads)
            .flatMap(thread -> Arrays.stream(thread.getLockedMonitors()))
            .filter(monitor -> monitor.getLockedStackFrame().getClassName().endsWith(".ForwardController"))
            .toList();
    }

    private List<CompletableFuture<HttpResponse<String>>> inFlight(int count, String path) {
        return IntStream.range(0, count).mapToObj(i -> CompletableFuture.supplyAsync(() -> Http.get(port, path)))
            .toList();
    }

    @Test
    void eachPinnedRequestHoldsAMonitorOfItsOwnDuringItsCall() {
        stub.hold();
        try {
            List<CompletableFuture<HttpResponse<String>>> calls = inFlight(2, "/pinned?ms=1500");
            // Both calls are held by the delay-service: both requests are inside their call right now.
            stub.awaitHeld(2);
            List<MonitorInfo> held = monitorsHeldInPinned();
            assertThat(held).hasSize(2).allSatisfy(monitor -> {
                assertThat(monitor.getLockedStackFrame().getMethodName()).isEqualTo("pinned");
                assertThat(monitor.getClassName()).isEqualTo(Object.class.getName());
            });
            // Two different objects, both locked at once: the requests overlap instead of taking turns.
            assertThat(held.get(0).getIdentityHashCode()).isNotEqualTo(held.get(1).getIdentityHashCode());
            stub.release();
            assertThat(calls.stream().map(CompletableFuture::join).map(HttpResponse::statusCode)).containsOnly(200);
        } finally {
            stub.release();
        }
        assertThat(monitorsHeldInPinned()).isEmpty();
    }

    @Test
    void forwardMakesTheSameCallWithoutAMonitor() {
        stub.hold();
        try {
            CompletableFuture<HttpResponse<String>> call = inFlight(1, "/forward?ms=1000").get(0);
            stub.awaitHeld(1);
            assertThat(monitorsHeldInPinned()).isEmpty();
            stub.release();
            assertThat(call.join().statusCode()).isEqualTo(200);
        } finally {
            stub.release();
        }
    }

    @Test
    void cpuWorkIsCountedInPlatformModeToo() {
        long before = metric("cpu_work_ms_total");
        HttpResponse<String> response = Http.get(port, "/cpu?cpuMs=4");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(metric("cpu_work_ms_total") - before).isEqualTo(4);
    }
}
