package loadlab.delay.downstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/** DOWNSTREAM_ERRORS and DOWNSTREAM_RESETS: every answer fails the configured way (100% here), after its delay. */
class InjectedFailuresTests {

    static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    static HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            properties = {"downstream.delay-ms=5", "downstream.errors-pct=100"})
    class Errors {
        @LocalServerPort
        int port;

        @Test
        void anInjectedErrorIsA503ProblemThatSaysItWasInjected() throws Exception {
            HttpResponse<String> r = get(port, "/posts/1");
            assertThat(r.statusCode()).isEqualTo(503);
            assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(
                    t -> assertThat(t).startsWith("application/problem+json"));
            assertThat(r.body()).contains("Injected downstream error");
            // /delay?ms=N keeps its meaning: never failed on purpose.
            assertThat(get(port, "/delay?ms=1").statusCode()).isEqualTo(200);
        }
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            properties = {"downstream.delay-ms=5", "downstream.resets-pct=100"})
    class Resets {
        @LocalServerPort
        int port;

        @Test
        void anInjectedResetClosesTheConnectionWithoutAnAnswer() {
            assertThatThrownBy(() -> get(port, "/posts/1")).isInstanceOf(IOException.class);
        }
    }
}
