package loadlab.delay.downstream;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import loadlab.delay.downstream.ServedDelays.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.reactivestreams.Subscription;
import org.springframework.http.HttpHeaders;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/** What goes into the served log: the answers the service under test got, not the harness's own probes. */
class ServedDelaysTests {

    /** An arrival this long ago: the answer's served delay is at least that, whatever the machine does. */
    private static final long FIFTY_MS_AGO = TimeUnit.MILLISECONDS.toNanos(50);

    @TempDir
    Path tmp;

    @Test
    void withADrawnDelayTheDelayPathsProbeAnswersAreNotServedAnswers() throws Exception {
        assertThat(servedCount("lognormal")).isEqualTo(1);
    }

    @Test
    void withAConstantDelayTheDelayPathIsTheDownstream() throws Exception {
        assertThat(servedCount(DelayDistribution.CONSTANT)).isEqualTo(2);
    }

    /** One drawn answer and one of /delay?ms=N: the `served` answers logged. */
    private long servedCount(String dist) throws IOException, InterruptedException {
        Path log = tmp.resolve(dist + ".hlog");
        ServedDelays served = served(dist, log);
        long second = System.currentTimeMillis() / 1000;
        served.record(System.nanoTime());
        served.recordDelayPath(System.nanoTime(), ServedDelays.WAITS_UNTIL_ANSWERED);
        return logged(served, log, second).getOrDefault("served", 0L);
    }

    /** An answer later than its caller said it would wait is an orphan too, whatever became of it; others are not. */
    @Test
    void anAnswerPastTheCallersWaitIsAlsoAnOrphan() throws Exception {
        Path log = tmp.resolve("orphan.hlog");
        ServedDelays served = served(DelayDistribution.CONSTANT, log);
        long second = System.currentTimeMillis() / 1000;
        long arrived = System.nanoTime() - FIFTY_MS_AGO;
        served.record(arrived, Outcome.SERVED, 10);
        served.record(arrived, Outcome.ERROR, 0);
        served.recordDelayPath(arrived, 10);
        served.record(arrived, Outcome.SERVED, 60_000);
        served.record(arrived, Outcome.SERVED, ServedDelays.WAITS_UNTIL_ANSWERED);
        served.recordDelayPath(arrived, ServedDelays.WAITS_UNTIL_ANSWERED);
        assertThat(logged(served, log, second)).isEqualTo(Map.of("served", 6L, "error", 1L, "orphan", 3L));
    }

    @Test
    void aCancelledRequestIsCountedApartFromTheAnswers() throws Exception {
        Path log = tmp.resolve("cancelled.hlog");
        ServedDelays served = served(DelayDistribution.CONSTANT, log);
        long second = System.currentTimeMillis() / 1000;
        served.recordCancelled(System.nanoTime() - FIFTY_MS_AGO);
        served.recordDelayPathCancelled(System.nanoTime());
        assertThat(logged(served, log, second)).isEqualTo(Map.of("cancelled", 2L));
        assertThat(ServedLogs.max(log, ServedDelays.CANCELLED_TAG)).isGreaterThanOrEqualTo(50);
    }

    /** With a drawn delay /delay is the harness's probe: neither its late answers nor its cancels are the service's. */
    @Test
    void withADrawnDelayTheDelayPathCountsNoOrphanNorCancel() throws Exception {
        Path log = tmp.resolve("probe.hlog");
        ServedDelays served = served("lognormal", log);
        long second = System.currentTimeMillis() / 1000;
        served.recordDelayPath(System.nanoTime() - FIFTY_MS_AGO, 0);
        served.recordDelayPathCancelled(System.nanoTime());
        served.record(System.nanoTime());
        assertThat(logged(served, log, second)).isEqualTo(Map.of("served", 1L));
    }

    @ParameterizedTest
    @CsvSource(value = {"250, 250", "' 7 ', 7", "0, 0", "-5, 0", "soon, -1", "1.5, -1", "'', -1", "NULL, -1"},
            nullValues = "NULL")
    void theCallersWaitIsAWholeNumberOfMsOrNone(String header, long expected) {
        HttpHeaders headers = new HttpHeaders();
        if (header != null) {
            headers.add(ServedDelays.CALLER_WAITS_HEADER, header);
        }
        assertThat(ServedDelays.callerWaitsMs(headers)).isEqualTo(expected);
    }

    @Test
    void aCancelBeforeTheAnswerIsTheCallerGoneAndNothingElseIs() {
        AtomicInteger gone = new AtomicInteger();
        StepVerifier.create(ServedDelays.onCallerGone(Mono.never(), gone::incrementAndGet))
                .expectSubscription().thenCancel().verify(Duration.ofSeconds(10));
        assertThat(gone).hasValue(1);
        StepVerifier.create(ServedDelays.onCallerGone(Mono.just("{}"), gone::incrementAndGet))
                .expectNext("{}").expectComplete().verify(Duration.ofSeconds(10));
        StepVerifier.create(ServedDelays.onCallerGone(Mono.empty(), gone::incrementAndGet))
                .expectComplete().verify(Duration.ofSeconds(10));
        // A subscriber that cancels once it has the answer (as Mono.from of a Flux does) took it: no cancel.
        ServedDelays.onCallerGone(Mono.just("{}"), gone::incrementAndGet).subscribe(new BaseSubscriber<>() {
            @Override
            protected void hookOnSubscribe(Subscription subscription) {
                request(1);
            }

            @Override
            protected void hookOnNext(String value) {
                cancel();
            }
        });
        assertThat(gone).hasValue(1);
    }

    private ServedDelays served(String dist, Path log) {
        return new ServedDelays(new DownstreamProperties(dist, 10, 50, 0, 0, "", 0, 0, "", log.toString()));
    }

    /** The log's counts per tag once the second things were recorded in has ended and the log is closed. */
    private static Map<String, Long> logged(ServedDelays served, Path log, long second)
            throws IOException, InterruptedException {
        // the log holds whole seconds: wait for this one to end (an order of events, not a duration)
        while (System.currentTimeMillis() / 1000 == second) {
            Thread.sleep(20);
        }
        served.destroy();
        return ServedLogs.counts(log);
    }
}
