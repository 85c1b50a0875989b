package loadlab.thread.mode;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import loadlab.thread.forward.ForwardContractTests;
import loadlab.thread.support.Http;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * {@link ForwardContractTests} in virtual-limited mode (virtual threads, the downstream call under
 * {@code @ConcurrencyLimit} of 2), and the limit itself: a call over it is answered 503 at once, while the calls
 * within it are still held by the delay-service (the order of events, never a duration), counted as a rejection.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "thread-mode=virtual-limited", "delay-service.concurrency-limit=2", "management.server.port=0"})
class VirtualLimitedModeTests extends ForwardContractTests {

    @Override
    protected String mode() {
        return "virtual-limited";
    }

    @Test
    void aCallOverTheLimitIsShedWithA503WhileTheCallsWithinItAreStillHeld() {
        long rejectedBefore = metric("downstream_rejected_total");
        stub.hold();
        List<CompletableFuture<HttpResponse<String>>> within = List.of(
                CompletableFuture.supplyAsync(() -> Http.get(port, "/forward?ms=50")),
                CompletableFuture.supplyAsync(() -> Http.get(port, "/forward?ms=50")));
        stub.awaitHeld(2);
        HttpResponse<String> over = Http.get(port, "/forward?ms=50");
        // Answered while both calls within the limit are still held: shed at once, never queued behind them.
        assertThat(stub.held()).isEqualTo(2);
        assertThat(within).noneMatch(CompletableFuture::isDone);
        Map<String, Object> problem = Http.problem(over, 503, "concurrency-limit-reached");
        assertThat(problem).containsEntry("limit", 2).containsEntry("title", "Concurrency limit reached");
        assertThat(stub.calls()).isEqualTo(2);
        assertThat(metric("downstream_rejected_total") - rejectedBefore).isEqualTo(1);
        stub.release();
        assertThat(within).allSatisfy(f -> assertThat(f.join().statusCode()).isEqualTo(200));
        // The permits came back with the answers: the next call goes through.
        assertThat(Http.get(port, "/forward?ms=1").statusCode()).isEqualTo(200);
        assertThat(metric("downstream_rejected_total") - rejectedBefore).isEqualTo(1);
    }

    @Test
    void requestsRunOnVirtualThreadsAndTheEndpointNamesTheLimit() {
        assertThat(Http.json(Http.get(port, "/thread"))).containsEntry("virtual", true)
            .containsEntry("mode", "virtual-limited");
        assertThat(sample()).containsEntry("downstream_concurrency_limit", 2)
            .containsEntry("tomcat_threads_max", -1);
    }
}
