package loadlab.thread.forward;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;

import loadlab.thread.support.Http;
import loadlab.thread.support.StubbedServiceTests;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "management.server.port=0", "thread-mode=virtual", "cpu.max-ms=500" })
class CpuAndPinnedTests extends StubbedServiceTests {

    @Test
    void badCpuMsOnPinnedIsAProblemAndMakesNoCall() {
        int calls = stub.calls();
        HttpResponse<String> response = Http.get(port, "/pinned?ms=1&cpuMs=-1");
        assertThat(Http.problem(response, 400, "invalid-parameter")).containsEntry("parameter", "cpuMs")
            .containsEntry("max", 500);
        assertThat(stub.calls()).isEqualTo(calls);
    }

    /**
     * Many /pinned requests at once, each blocking 1 s inside its own monitor. They never take turns on a lock (a
     * shared one would let one call at a time reach the delay-service). Whether they overlap beyond the carriers is
     * the JDK's business, and exactly what the pinned scenario measures: on JDK 21 a virtual thread blocked inside
     * {@code synchronized} keeps its carrier, so at most {@code carriers} calls are under way; from JDK 24 (JEP 491)
     * it unmounts and all of them are.
     */
    @Test
    void pinnedRequestsOverlapAsFarAsTheJdkLetsVirtualThreadsBlockInsideAMonitor() {
        int carriers = (int) metric("virtual_scheduler_parallelism");
        int requests = 2 * carriers + 2;
        List<HttpResponse<String>> answers = Http.concurrently(requests, port, "/pinned?ms=1000");
        assertThat(answers).extracting(HttpResponse::statusCode).containsOnly(200);
        assertThat(stub.calls()).isEqualTo(requests);
        if (Runtime.version().feature() >= 24) {
            assertThat(stub.maxInFlight()).as("calls under way at once").isGreaterThan(carriers);
        } else {
            assertThat(stub.maxInFlight()).as("calls under way at once, pinned carriers").isBetween(1, carriers);
        }
    }

    @Test
    void forwardIsNotPinnedOnAnyJdk() {
        int carriers = (int) metric("virtual_scheduler_parallelism");
        List<HttpResponse<String>> answers = Http.concurrently(2 * carriers + 2, port, "/forward?ms=1000");
        assertThat(answers).extracting(HttpResponse::statusCode).containsOnly(200);
        assertThat(stub.maxInFlight()).as("calls under way at once").isGreaterThan(carriers);
    }
}
