package loadlab.reactive.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;

import loadlab.thread.support.Http;
import loadlab.thread.support.StubbedServiceTests;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * THREADLOCAL_KB on Netty: the object is cached per event loop, so however many requests arrive, it is built at most
 * once per loop (Reactor Netty runs max(cores, 4) of them), as once per pooled thread in platform mode.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "management.server.port=0", "threadlocal.kb=4"})
class ReactiveThreadLocalTests extends StubbedServiceTests {

    private static final int REQUESTS = 24;

    @Test
    void eachEventLoopBuildsItOnceWhateverTheRequests() {
        long builds = metric("threadlocal_builds_total");
        long requests = metric("requests_total");
        List<HttpResponse<String>> answers = Http.concurrently(REQUESTS, port, "/forward?ms=20");
        assertThat(answers).extracting(HttpResponse::statusCode).containsOnly(200);
        assertThat(metric("requests_total") - requests).isEqualTo(REQUESTS);
        int loops = Math.max(Runtime.getRuntime().availableProcessors(), 4);
        assertThat(metric("threadlocal_builds_total") - builds).as("builds: at most one per event loop")
            .isBetween(0L, (long) loops);
        assertThat(metric("threadlocal_builds_total")).isPositive();
        assertThat(sample()).containsEntry("threadlocal_kb", 4);
    }
}
