package loadlab.thread.threadlocal;

import static org.assertj.core.api.Assertions.assertThat;

import loadlab.thread.support.StubbedServiceTests;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The ThreadLocal trap with a virtual thread per request: every request starts on a thread that never had the
 * object, so it is built again each time. Counts only, never time.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "management.server.port=0", "thread-mode=virtual", "threadlocal.kb=4" })
class ThreadLocalVirtualThreadsTests extends StubbedServiceTests {

    @Test
    void everyRequestBuildsItAgain() {
        long before = metric("threadlocal_builds_total");
        WorkloadRequests.ofEveryKind(port);
        assertThat(metric("threadlocal_builds_total") - before).as("builds: one per request")
            .isEqualTo(WorkloadRequests.COUNT);
    }

    @Test
    void reportsItsSizeAndTomcatsDefaultMaxConnections() {
        assertThat(sample()).containsEntry("threadlocal_kb", 4).containsEntry("tomcat_max_connections", 8192);
    }
}
