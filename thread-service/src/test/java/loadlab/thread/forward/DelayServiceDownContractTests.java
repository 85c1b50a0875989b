package loadlab.thread.forward;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.util.Map;

import loadlab.thread.support.Http;
import loadlab.thread.support.ServiceTests;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The delay-service refusing connections, the same answer from every service (DelayServiceDownTests here). */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {"management.server.port=0",
        "delay-service.connect-timeout=60s"})
public abstract class DelayServiceDownContractTests extends ServiceTests {

    @DynamicPropertySource
    static void downstream(DynamicPropertyRegistry registry) {
        int closedPort = closedPort();
        registry.add("delay-service.url", () -> "http://127.0.0.1:" + closedPort);
    }

    /** A port the kernel just handed out and that nobody listens on any more. */
    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A refused connection is a 502 naming the refusal, never waited out: the connect timeout here is longer than this
     * test client's 20 s patience, so a service that retried or waited until that timeout would give no answer at all
     * (and a refusal taken for a timeout would be a 504 naming the connect timeout).
     */
    @Test
    public void refusedConnectionIsABadGatewayNamingTheRefusal() {
        HttpResponse<String> response = Http.get(port, "/forward?ms=10");
        Map<String, Object> problem = Http.problem(response, 502, "delay-service-unreachable");
        assertThat(problem).containsEntry("status", 502);
        assertThat((String) problem.get("detail")).contains("Cannot connect").doesNotContain("connect timeout");
    }
}
