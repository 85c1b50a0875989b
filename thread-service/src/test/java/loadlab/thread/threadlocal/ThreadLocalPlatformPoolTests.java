package loadlab.thread.threadlocal;

import static org.assertj.core.api.Assertions.assertThat;

import loadlab.thread.support.StubbedServiceTests;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The ThreadLocal trap on a platform pool: the per-thread object of {@code threadlocal.kb} is built once per pooled
 * thread, however many requests each thread serves. Counts only, never time.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "management.server.port=0", "thread-mode=platform",
        "server.tomcat.threads.max=" + ThreadLocalPlatformPoolTests.POOL, "server.tomcat.threads.min-spare=1",
        "server.tomcat.max-connections=321", "threadlocal.kb=4" })
class ThreadLocalPlatformPoolTests extends StubbedServiceTests {

    static final int POOL = 3;

    @Test
    void eachPooledThreadBuildsItOnceHoweverManyRequestsItServes() {
        long requestsBefore = metric("requests_total");
        WorkloadRequests.ofEveryKind(port);
        assertThat(metric("requests_total") - requestsBefore).isEqualTo(WorkloadRequests.COUNT);
        assertThat(metric("threadlocal_builds_total")).as("builds since start: at most one per pooled thread")
            .isBetween(1L, (long) POOL);
    }

    @Test
    void reportsItsSizeAndTomcatsMaxConnections() {
        assertThat(sample()).containsEntry("threadlocal_kb", 4).containsEntry("tomcat_max_connections", 321)
            .containsEntry("tomcat_threads_max", POOL);
    }
}
