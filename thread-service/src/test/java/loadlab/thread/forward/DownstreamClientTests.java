package loadlab.thread.forward;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import loadlab.thread.support.Http;
import loadlab.thread.support.StubbedServiceTests;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * CLIENT (delay-service.client) and CLIENT_POOL (delay-service.client-pool): each client answers /forward and says in
 * the live config what it runs with; a pooled client's pool bounds the calls at once, and a call that got no
 * connection within the wait is answered 503 with the pool's own problem type.
 */
class DownstreamClientTests {

    private static final String POOL_FULL = "delay-service-client-pool-full";

    /** Reactor Netty's own default: 2 x max(cores, 8) connections. */
    private static final int REACTOR_DEFAULT_POOL = 2 * Math.max(Runtime.getRuntime().availableProcessors(), 8);

    abstract static class ClientCase extends StubbedServiceTests {

        void answersForwardAndReports(String client, long perRoute, long total) {
            HttpResponse<String> response = Http.get(port, "/forward?ms=5");
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(Http.json(response)).containsEntry("delayMs", 5);
            Map<String, Object> live = sample();
            assertThat(live).containsEntry("downstream_client", client);
            assertThat(metric("downstream_client_pool_per_route")).isEqualTo(perRoute);
            assertThat(metric("downstream_client_pool_total")).isEqualTo(total);
        }

        /** With one connection held by the stub, a second call waits the connect timeout (1 s) and gets the 503. */
        void aFullPoolPastItsWaitIsA503OfItsOwn(String client) {
            stub.hold();
            CompletableFuture<HttpResponse<String>> first =
                    CompletableFuture.supplyAsync(() -> Http.get(port, "/forward?ms=10"));
            stub.awaitHeld(1);
            Map<String, Object> problem = Http.problem(Http.get(port, "/forward?ms=10"), 503, POOL_FULL);
            assertThat((String) problem.get("detail")).contains("the " + client + " client's pool", "1000 ms");
            // The delay-service never saw the second call: the pool, not the downstream, refused it.
            assertThat(stub.calls()).isEqualTo(1);
            stub.release();
            assertThat(first.join().statusCode()).isEqualTo(200);
        }
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
            "management.server.port=0"})
    class JdkByDefault extends ClientCase {

        @Test
        void answersAndHasNoPoolCap() {
            answersForwardAndReports("jdk", -1, -1);
        }
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
            "delay-service.client=apache", "delay-service.connect-timeout=20s", "management.server.port=0"})
    class ApacheDefaultPool extends ClientCase {

        @Test
        void answersWithItsOwnPoolOfFivePerRoute() {
            answersForwardAndReports("apache", 5, 25);
        }

        @Test
        void aSixthConcurrentCallWaitsForAConnection() throws InterruptedException {
            stub.hold();
            List<CompletableFuture<HttpResponse<String>>> calls = java.util.stream.IntStream.range(0, 6)
                    .mapToObj(i -> CompletableFuture.supplyAsync(() -> Http.get(port, "/forward?ms=1"),
                            runnable -> Thread.ofPlatform().daemon().start(runnable)))
                    .toList();
            stub.awaitHeld(5);
            // Not a measurement: time for a 6th call to reach the stub if the pool let it through.
            Thread.sleep(500);
            assertThat(stub.held()).isEqualTo(5);
            assertThat(stub.calls()).isEqualTo(5);
            stub.release();
            assertThat(calls).allSatisfy(call -> assertThat(call.join().statusCode()).isEqualTo(200));
            assertThat(stub.calls()).isEqualTo(6);
            assertThat(stub.maxInFlight()).isEqualTo(5);
        }
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
            "delay-service.client=apache", "delay-service.client-pool=1", "delay-service.connect-timeout=1s",
            "management.server.port=0"})
    class ApachePoolOfOne extends ClientCase {

        @Test
        void reportsThePoolAsked() {
            answersForwardAndReports("apache", 1, 25);
        }

        @Test
        void aFullPoolIsA503() {
            aFullPoolPastItsWaitIsA503OfItsOwn("apache");
        }
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
            "delay-service.client=reactor", "management.server.port=0"})
    class ReactorDefaultPool extends ClientCase {

        @Test
        void answersWithItsOwnPool() {
            answersForwardAndReports("reactor", REACTOR_DEFAULT_POOL, -1);
        }
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
            "delay-service.client=reactor", "delay-service.client-pool=1", "delay-service.connect-timeout=1s",
            "management.server.port=0"})
    class ReactorPoolOfOne extends ClientCase {

        @Test
        void reportsThePoolAsked() {
            answersForwardAndReports("reactor", 1, -1);
        }

        @Test
        void aFullPoolIsA503() {
            aFullPoolPastItsWaitIsA503OfItsOwn("reactor");
        }
    }
}
