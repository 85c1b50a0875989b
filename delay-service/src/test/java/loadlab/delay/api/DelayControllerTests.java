package loadlab.delay.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.test.StepVerifier;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "delay.max-ms=5000")
@AutoConfigureWebTestClient
class DelayControllerTests {

    @Autowired
    WebTestClient client;

    @Autowired
    DelayController controller;

    @Test
    void answersWithTheDelayItWasAskedFor() {
        client.get().uri("/delay?ms=200").exchange()
                .expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
                .expectBody().jsonPath("$.delayMs").isEqualTo(200);
    }

    /**
     * The wait is the controller's own timer, checked on Reactor's virtual clock: nothing before the 200th ms, the
     * answer at it: the order of events on a clock the test drives, so a busy machine can neither pass nor fail it.
     */
    @Test
    void answersNotBeforeTheRequestedDelayAndAtIt() {
        StepVerifier.withVirtualTime(() -> controller.delay("200", new HttpHeaders()))
                .expectSubscription()
                .expectNoEvent(Duration.ofMillis(199))
                .thenAwait(Duration.ofMillis(1))
                .assertNext(answer -> assertThat(answer.delayMs()).isEqualTo(200))
                .expectComplete()
                // Real time, and only for a failure: an answer the virtual clock never brings ends the test here.
                .verify(Duration.ofSeconds(10));
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
