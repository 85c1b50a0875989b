package loadlab.delay.downstream;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.test.StepVerifier;

/** A downstream at any path and method: an app with a base URL calls {@code {base}/posts/1} and gets an answer. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "downstream.delay-ms=200")
@AutoConfigureWebTestClient
class DownstreamControllerTests {

    @Autowired
    WebTestClient client;

    @Autowired
    DownstreamController controller;

    @ParameterizedTest
    @ValueSource(strings = {"GET", "POST", "PUT", "PATCH", "DELETE"})
    void everyMethodAtAnyPathAnswersEmptyJsonAndDropsTheBody(String method) {
        client.method(HttpMethod.valueOf(method)).uri("/posts/1/comments?x=y")
                .contentType(MediaType.APPLICATION_JSON).bodyValue("{\"title\":\"" + "x".repeat(20_000) + "\"}")
                .exchange()
                .expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
                .expectBody().json("{}");
    }

    @Test
    void delayKeepsItsMeaningAndItsQuery() {
        client.get().uri("/delay?ms=3").exchange().expectStatus().isOk().expectBody().jsonPath("$.delayMs")
                .isEqualTo(3);
        client.get().uri("/actuator/health").exchange().expectStatus().isOk();
    }

    /** The configured delay, on Reactor's virtual clock: nothing before it, the answer at it. */
    @Test
    void answersAfterTheConfiguredDelayNotBefore() {
        MockServerHttpRequest request = MockServerHttpRequest.post("/orders/7").body("{\"qty\":1}");
        StepVerifier.withVirtualTime(() -> controller.answer(request))
                .expectSubscription()
                .expectNoEvent(Duration.ofMillis(199))
                .thenAwait(Duration.ofMillis(1))
                .assertNext(answer -> assertThat(answer.getBody()).isEqualTo("{}"))
                .expectComplete()
                .verify(Duration.ofSeconds(10));
    }
}
