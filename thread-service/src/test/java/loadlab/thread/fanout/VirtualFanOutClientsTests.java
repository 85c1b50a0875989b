package loadlab.thread.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;

import loadlab.thread.support.Http;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The virtual modes' fan-out on the other clients (delay-service.client): the calls still out at the deadline are
 * interrupted (by the scope, or the executor's {@code cancel(true)}), and on these clients too that closes their
 * connections: Apache's blocking socket read is interruptible on a virtual thread (the JDK closes the socket),
 * Reactor's blocked {@code Mono.block()} disposes its subscription (Reactor Netty closes the connection). The JDK
 * client is {@link VirtualFanOutTests}' own.
 */
class VirtualFanOutClientsTests {

    abstract static class ClientCase extends FanOutStubbedTests {

        @Test
        void theCallsStillOutAtTheDeadlineHaveTheirConnectionsClosed() {
            // A first request makes the client and its first connections, not against the deadline.
            assertThat(Http.get(port, "/fanout?ms=0&n=3").statusCode()).isEqualTo(200);
            stub.reset();
            stub.hold(1, 2);
            HttpResponse<String> response = Http.get(port, "/fanout?ms=0&n=3&timeoutMs=1000&onTimeout=partial");
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(Http.json(response)).containsEntry("answered", 1).containsEntry("missing", List.of(1, 2));
            stub.awaitClosed(2);
            assertThat(stub.outcome(1)).isEqualTo(FanOutStub.Outcome.CLOSED_BEFORE_ANSWER);
            assertThat(stub.outcome(2)).isEqualTo(FanOutStub.Outcome.CLOSED_BEFORE_ANSWER);
        }
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
            "thread-mode=virtual", "management.server.port=0", "delay-service.client=apache"})
    class Apache extends ClientCase {
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
            "thread-mode=virtual", "management.server.port=0", "delay-service.client=reactor"})
    class Reactor extends ClientCase {
    }
}
