package loadlab.delay.downstream;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/** DOWNSTREAM_STUBS: the first stub matching the method and path answers with its status and body; else {@code {}}. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient
class StubsTests {

    static final String STUBS = """
            [{"path": "/posts/{id}", "method": "GET", "status": 200, "content_type": "application/json",
              "body": "{\\"id\\": 1, \\"title\\": \\"hello\\"}"},
             {"path": "/posts/**", "method": null, "status": 201, "content_type": "text/plain", "body": "made"}]
            """;

    @Autowired
    WebTestClient client;

    @DynamicPropertySource
    static void stubs(DynamicPropertyRegistry registry) {
        registry.add("downstream.stubs",
                () -> Base64.getEncoder().encodeToString(STUBS.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theFirstMatchingStubAnswersAndOthersGetEmptyJson() {
        client.get().uri("/posts/7").exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.title").isEqualTo("hello");
        client.post().uri("/posts/7").contentType(MediaType.APPLICATION_JSON).bodyValue("{}").exchange()
                .expectStatus().isCreated().expectBody(String.class).isEqualTo("made");
        client.get().uri("/users/1").exchange().expectStatus().isOk().expectBody().json("{}");
    }
}
