package loadlab.thread.forward;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import loadlab.thread.support.Http;
import loadlab.thread.support.StubbedServiceTests;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/**
 * DOWNSTREAM_TIMEOUT_MS, the service's own client timeout ({@code delay-service.client-timeout}), in each service
 * under test: shorter than the lab's safety net ({@code delay-service.timeout}), it is the one that ends a call the
 * delay-service still holds, answered with its own 504 problem type; an error answer of the delay-service stays a 502
 * of another type. A subclass gives the mode ({@code @SpringBootTest} properties) and the package's configuration.
 */
// 2 s: a cold service's first call (its client's first connection) must reach the stub well within it, so the test
// asserts the order of events (the stub holds the call, then the service answers), never how fast the service is.
@TestPropertySource(properties = {"delay-service.timeout=30s", "delay-service.client-timeout=2s"})
public abstract class ClientTimeoutContractTests extends StubbedServiceTests {

    @Test
    public void aHeldCallIsCutByTheClientTimeoutNotTheSafetyNet() {
        // Only a limit of the service can end it: the stub holds the call until the next test.
        stub.hold();
        CompletableFuture<HttpResponse<String>> forward =
                CompletableFuture.supplyAsync(() -> Http.get(port, "/forward?ms=4000"));
        stub.awaitHeld(1);
        Map<String, Object> problem = Http.problem(forward.join(), 504, "delay-service-client-timeout");
        assertThat((String) problem.get("detail")).contains("2000 ms", "delay-service.client-timeout");
        // Answered while the delay-service still held the call.
        assertThat(stub.held()).isEqualTo(1);
    }

    @Test
    public void anErrorAnswerOfTheDelayServiceStaysABadGateway() {
        stub.respondWith(503);
        Http.problem(Http.get(port, "/forward?ms=10"), 502, "delay-service-error-status");
    }
}
