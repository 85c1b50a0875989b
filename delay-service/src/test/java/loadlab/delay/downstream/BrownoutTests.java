package loadlab.delay.downstream;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** The slowness belongs to the time: inside the scheduled window the brownout's delay, outside it the normal one. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "downstream.delay-ms=20")
@AutoConfigureWebTestClient
class BrownoutTests {

    @Autowired
    WebTestClient client;

    @Autowired
    Brownout brownout;

    @Test
    void aRequestInsideTheWindowWaitsTheBrownoutsDelayAndOneAfterItTheNormalOne() {
        long now = System.currentTimeMillis();
        brownout.schedule(new Brownout.Window(now - 1_000, now + 60_000, 400, now));
        assertThat(timedMs("/drawn/delay?ms=20")).isBetween(390L, 5_000L);
        // /delay?ms=N keeps its meaning: the lab's own probe and warm-up never see the brownout.
        assertThat(timedMs("/delay?ms=5")).isLessThan(390L);
        // The window is over: a request arriving now is answered at the normal delay, whatever came before.
        brownout.schedule(new Brownout.Window(now - 2_000, now - 1_000, 400, now));
        assertThat(timedMs("/drawn/delay?ms=20")).isLessThan(390L);
    }

    @Test
    void theHarnessSchedulesAWindowAheadAndReadsItBack() {
        long now = System.currentTimeMillis();
        client.post().uri(BrownoutController.PATH + "?from={f}&to={t}&ms=400", now + 60_000, now + 61_000)
                .exchange().expectStatus().isOk().expectBody().jsonPath("$.delayMs").isEqualTo(400);
        client.get().uri(BrownoutController.PATH).exchange().expectStatus().isOk().expectBody()
                .jsonPath("$.fromEpochMs").isEqualTo(now + 60_000).jsonPath("$.toEpochMs").isEqualTo(now + 61_000);
    }

    @Test
    void aWindowWhoseStartPassedOrThatIsNoWindowIsAProblem() {
        long now = System.currentTimeMillis();
        client.post().uri(BrownoutController.PATH + "?from={f}&to={t}&ms=400", now - 5_000, now + 5_000).exchange()
                .expectStatus().isBadRequest().expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("already passed"));
        client.post().uri(BrownoutController.PATH + "?from={f}&to={t}&ms=400", now + 9_000, now + 5_000).exchange()
                .expectStatus().isBadRequest();
        client.post().uri(BrownoutController.PATH + "?from=1").exchange().expectStatus().isBadRequest();
    }

    @Test
    void theWindowCoversItsStartNotItsEnd() {
        Brownout.Window w = new Brownout.Window(1_000, 2_000, 300, 0);
        assertThat(w.covers(999)).isFalse();
        assertThat(w.covers(1_000)).isTrue();
        assertThat(w.covers(1_999)).isTrue();
        assertThat(w.covers(2_000)).isFalse();
    }

    private long timedMs(String uri) {
        long start = System.nanoTime();
        client.mutate().responseTimeout(Duration.ofSeconds(5)).build().get().uri(uri).exchange().expectStatus().isOk();
        return (System.nanoTime() - start) / 1_000_000;
    }
}
