package loadlab.delay.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "delay.max-ms=5000")
@AutoConfigureWebTestClient
class DelayControllerTests {

    @Autowired
    WebTestClient client;

    @Test
    void answersAfterTheRequestedDelay() {
        long start = System.nanoTime();
        client.get().uri("/delay?ms=200").exchange()
                .expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
                .expectBody().jsonPath("$.delayMs").isEqualTo(200);
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        // Lower bound is the contract; the upper one only catches "slept far too long" on a busy machine.
        assertThat(elapsed).isBetween(Duration.ofMillis(200), Duration.ofSeconds(5));
    }

    @Test
    void zeroIsAllowed() {
        client.get().uri("/delay?ms=0").exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.delayMs").isEqualTo(0);
    }

    @Test
    void missingMsIsAProblem() {
        client.get().uri("/delay").exchange()
                .expectStatus().isBadRequest()
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.status").isEqualTo(400)
                .jsonPath("$.parameter").isEqualTo("ms")
                .jsonPath("$.max").isEqualTo(5000)
                .jsonPath("$.detail").value(String.class, d -> assertThat(d).contains("'ms'", "required", "0 to 5000"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "-1", "5001", "1.5", "99999999999999999999"})
    void badMsIsAProblemNamingParameterValueAndRange(String bad) {
        client.get().uri(b -> b.path("/delay").queryParam("ms", bad).build()).exchange()
                .expectStatus().isBadRequest()
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.parameter").isEqualTo("ms")
                .jsonPath("$.value").isEqualTo(bad)
                .jsonPath("$.min").isEqualTo(0)
                .jsonPath("$.max").isEqualTo(5000)
                .jsonPath("$.detail")
                .value(String.class, d -> assertThat(d).contains("'ms'", "'" + bad + "'", "0 to 5000"));
    }

    @Test
    void healthIsUp() {
        client.get().uri("/actuator/health").exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("UP");
    }
}
