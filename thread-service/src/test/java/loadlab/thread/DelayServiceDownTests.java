package loadlab.thread;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "management.server.port=0")
@DirtiesContext
class DelayServiceDownTests {

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

    @LocalServerPort
    int port;

    @Test
    void refusedConnectionIsABadGatewayAtOnce() {
        long start = System.nanoTime();
        HttpResponse<String> response = Http.get(port, "/forward?ms=10");
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(Http.contentType(response)).startsWith("application/problem+json");
        Map<String, Object> problem = Http.json(response);
        assertThat(problem).containsEntry("status", 502);
        assertThat((String) problem.get("detail")).contains("Cannot connect");
        // Well under the 2 s connect timeout: a refusal must not be waited out.
        assertThat(elapsed).isLessThan(Duration.ofMillis(1500));
    }
}
