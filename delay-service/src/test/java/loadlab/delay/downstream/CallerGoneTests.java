package loadlab.delay.downstream;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.server.WebFilter;

/**
 * The witness of calls whose caller has gone, on the real server (Reactor Netty) and its real served log: an answer
 * sent after the time its caller said it would wait is an `orphan`, and a caller that closes its connection while
 * the delay runs cancels the request, counted as `cancelled`. Each test has its own server and log, so its counts
 * are exact.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"downstream.delay-ms=50", "delay.max-ms=600000"})
@AutoConfigureWebTestClient
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_EACH_TEST_METHOD)
class CallerGoneTests {

    /** A bound on waiting for an event the test needs, never a measured time: a busy machine only makes it slower. */
    private static final long WAIT_S = 60;
    private static final long LONG_DELAY_MS = 600_000;

    private static Path log;

    @DynamicPropertySource
    static void servedLog(DynamicPropertyRegistry registry) {
        try {
            Path target = Files.createDirectories(Path.of("target", "caller-gone-tests"));
            log = Files.createTempDirectory(target, "served").resolve("served.hlog");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path current = log;
        registry.add("downstream.served-log", current::toString);
    }

    /** Each request that reached the handlers, released as it passes the filters on the way in. */
    @TestConfiguration
    static class Arrivals {
        final Semaphore arrived = new Semaphore(0);

        @Bean
        WebFilter countArrivals() {
            return (exchange, chain) -> chain.filter(exchange).doOnSubscribe(s -> arrived.release());
        }
    }

    @Autowired
    WebTestClient client;

    @Autowired
    Arrivals arrivals;

    @Autowired
    Brownout brownout;

    @LocalServerPort
    int port;

    @Test
    void anAnswerSentAfterItsCallerStoppedWaitingIsAnOrphanOnEveryPath() throws Exception {
        String waits = ServedDelays.CALLER_WAITS_HEADER;
        client.get().uri("/orders/1").header(waits, "0").exchange().expectStatus().isOk();
        client.get().uri("/delay?ms=20").header(waits, "0").exchange().expectStatus().isOk();
        client.get().uri("/orders/2").header(waits, "60000").exchange().expectStatus().isOk();
        client.get().uri("/delay?ms=20").header(waits, "soon").exchange().expectStatus().isOk();
        // Last, an answer to nobody's deadline: once it is in the log, so is everything recorded before it.
        client.get().uri("/orders/3").exchange().expectStatus().isOk();
        assertThat(countsOnceServed(5, 2)).isEqualTo(Map.of("served", 5L, "orphan", 2L));
        assertThat(ServedLogs.max(log, ServedDelays.ORPHAN_TAG)).isGreaterThanOrEqualTo(20);
    }

    /**
     * The proof that Reactor Netty cancels a request whose caller closed its connection while its delay runs: a
     * plain socket sends the request, waits until it reached the handler, and closes. The drawn path is held by a
     * brownout, /delay by its own ms; both would answer in ten minutes, so no answer is what the log shows, and each
     * cancel's value (arrival to close) is below the delay.
     */
    @Test
    void aCallerThatClosesItsConnectionMidDelayCancelsTheRequestOnEveryPath() throws Exception {
        long now = System.currentTimeMillis();
        brownout.schedule(new Brownout.Window(now - 1_000, now + LONG_DELAY_MS, LONG_DELAY_MS, now));
        sendAndClose("/orders/1", "");
        sendAndClose("/delay?ms=" + LONG_DELAY_MS, ServedDelays.CALLER_WAITS_HEADER + ": 0\r\n");
        client.get().uri("/delay?ms=0").exchange().expectStatus().isOk();
        assertThat(awaitCancelled(2)).isEqualTo(Map.of("served", 1L, "cancelled", 2L));
        assertThat(ServedLogs.max(log, ServedDelays.CANCELLED_TAG)).isLessThan(LONG_DELAY_MS);
    }

    private void sendAndClose(String path, String headers) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(arrivals.arrived.tryAcquire(WAIT_S, TimeUnit.SECONDS)).as("%s reached the handler", path)
                    .isTrue();
        }
    }

    /** The log's counts per tag once it holds {@code served} answers (every answer is one), bounded by WAIT_S. */
    /** Once the log holds `served` answers and `orphans` orphans: a second's answers and its orphans are recorded
     *  one after the other, so an answer recorded at a second's turn may land a second before its orphan. */
    private Map<String, Long> countsOnceServed(long served, long orphans) throws InterruptedException {
        return await(counts -> counts.getOrDefault("served", 0L) >= served
                && counts.getOrDefault("orphan", 0L) >= orphans,
                served + " served answers and " + orphans + " orphans");
    }

    private Map<String, Long> awaitCancelled(long cancelled) throws InterruptedException {
        return await(counts -> counts.getOrDefault("cancelled", 0L) >= cancelled && counts.containsKey("served"),
                cancelled + " cancelled requests and the answer after them");
    }

    private static Map<String, Long> await(Predicate<Map<String, Long>> seen, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        while (true) {
            Map<String, Long> counts = read();
            if (seen.test(counts)) {
                return counts;
            }
            assertThat(System.nanoTime()).as("%s in the served log within %d s: %s", what, WAIT_S, counts)
                    .isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    private static Map<String, Long> read() {
        try {
            return Files.exists(log) ? ServedLogs.counts(log) : Map.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
