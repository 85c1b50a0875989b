package loadlab.delay.downstream;

import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.HdrHistogram.Recorder;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

/**
 * The delay each answer was actually served in (from the request's arrival to its answer), one HdrHistogram
 * interval per wall-clock second in {@code downstream.served-log}: the same format, range and precision (ms) as the
 * injectors' latency.hlog, so the harness reads both alike and can prove the stand-in kept to its distribution. A
 * late timer or a starved event loop shows here as a served delay above the drawn one.
 * <p>
 * It also witnesses calls whose caller has gone (a fan-out's deadline, issue 45): an answer sent after the time its
 * caller said it would wait ({@link #CALLER_WAITS_HEADER}) is also counted under {@link #ORPHAN_TAG}, and a request
 * whose caller closed the connection before its answer went out under {@link #CANCELLED_TAG}.
 */
@Component
public class ServedDelays implements DisposableBean {

    static final long MAX_TRACKABLE_MS = 3_600_000L;

    /**
     * How long the caller will still wait for this answer, whole ms, as it was when the call was sent (a fan-out's
     * call with a deadline carries it). Measured from the arrival here, which is later than the caller's sending, so
     * an answer counted late by it was certainly late for the caller: the count errs low, never high.
     */
    public static final String CALLER_WAITS_HEADER = "Loadlab-Caller-Waits-Ms";
    /** The tag of an answer sent after its caller stopped waiting (value: its served delay, ms): work for nobody. */
    public static final String ORPHAN_TAG = "orphan";
    /** The tag of a request whose caller closed the connection before its answer (value: ms from arrival to it). */
    public static final String CANCELLED_TAG = "cancelled";
    /** No {@link #CALLER_WAITS_HEADER}: the caller waits as long as it takes, and its answer is never an orphan. */
    public static final long WAITS_UNTIL_ANSWERED = -1;

    /** What became of an answer: each its own tag in the log, so injected failures are counted apart. */
    public enum Outcome {
        SERVED("served"), ERROR("error"), RESET("reset");

        final Tag tag;

        Outcome(String name) {
            this.tag = new Tag(name);
        }
    }

    /** One tag of the log: its answers of the current second. */
    static final class Tag {
        final String name;
        final Recorder recorder = new Recorder(1, MAX_TRACKABLE_MS, 3);
        Histogram reuse;

        Tag(String name) {
            this.name = name;
        }
    }

    /** The answers a scheduled brownout delayed ({@link Brownout}), whatever became of them. */
    private static final Tag BROWNOUT = new Tag("brownout");
    private static final Tag ORPHAN = new Tag(ORPHAN_TAG);
    private static final Tag CANCELLED = new Tag(CANCELLED_TAG);
    private static final List<Tag> TAGS = List.of(Outcome.SERVED.tag, Outcome.ERROR.tag, Outcome.RESET.tag, BROWNOUT,
            ORPHAN, CANCELLED);

    private final PrintStream out;
    private final HistogramLogWriter log;
    private final ScheduledExecutorService writer;
    private long intervalStartMs = System.currentTimeMillis() / 1000 * 1000;
    /** A constant delay: {@code /delay?ms=N} is what the lab's services call, so its answers are the ones served. */
    private final boolean delayPathServes;

    ServedDelays(DownstreamProperties properties) {
        delayPathServes = DelayDistribution.CONSTANT.equals(properties.dist());
        if (properties.servedLog().isBlank()) {
            out = null;
            log = null;
            writer = null;
            return;
        }
        try {
            Path path = Path.of(properties.servedLog());
            Files.createDirectories(path.toAbsolutePath().getParent());
            // Buffered, flushed once a second (writeSecond): a reader sees a second's tags all at once, never its
            // served answers without their orphans.
            out = new PrintStream(new BufferedOutputStream(new FileOutputStream(path.toFile())), false,
                    StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write downstream.served-log " + properties.servedLog(), e);
        }
        log = new HistogramLogWriter(out);
        log.outputComment("delay-service: the delay each answer was served in, ms; interval start = the second "
                + "(Unix epoch s) it was answered in; tag served (every answer), error, reset (injected failures), "
                + "brownout (answers a brownout delayed), orphan (answers sent after their caller stopped waiting, "
                + "header " + CALLER_WAITS_HEADER + "), cancelled (requests whose caller closed the connection "
                + "before the answer: ms from arrival to the close)");
        log.outputLogFormatVersion();
        log.outputStartTime(intervalStartMs);
        log.setBaseTime(0);
        log.outputBaseTime(0);
        log.outputLegend();
        out.flush();
        writer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "served-delays");
            t.setDaemon(true);
            return t;
        });
        long now = System.currentTimeMillis();
        writer.scheduleAtFixedRate(this::writeSecond, 1000 - now % 1000, 1000, TimeUnit.MILLISECONDS);
    }

    /** The answer to a request that arrived at {@code startNanos} (System.nanoTime) goes out now. */
    public void record(long startNanos) {
        record(startNanos, Outcome.SERVED, WAITS_UNTIL_ANSWERED);
    }

    /**
     * An answer of {@code /delay?ms=N}, recorded only with a constant delay. With a drawn one the lab's services call
     * the drawn paths, and {@code /delay}'s only callers are the harness's probe and warm-up, at DELAY_MS: their
     * constant answers are not the distribution served (a recorded one with a median of 5 ms got a probe's 200 ms
     * answer every second, past its limit).
     */
    public void recordDelayPath(long startNanos, long callerWaitsMs) {
        if (delayPathServes) {
            record(startNanos, Outcome.SERVED, callerWaitsMs);
        }
    }

    /**
     * Every answer is SERVED; an injected 503 or reset is also counted under its own tag, and an answer that goes out
     * later than {@code callerWaitsMs} after the arrival ({@link #callerWaitsMs}) under {@link #ORPHAN_TAG}: whatever
     * became of it, nobody waited for it.
     */
    public void record(long startNanos, Outcome outcome, long callerWaitsMs) {
        if (log != null) {
            long elapsedNanos = System.nanoTime() - startNanos;
            long ms = servedMs(elapsedNanos);
            Outcome.SERVED.tag.recorder.recordValue(ms);
            if (outcome != Outcome.SERVED) {
                outcome.tag.recorder.recordValue(ms);
            }
            if (callerWaitsMs != WAITS_UNTIL_ANSWERED && elapsedNanos > TimeUnit.MILLISECONDS.toNanos(callerWaitsMs)) {
                ORPHAN.recorder.recordValue(ms);
            }
        }
    }

    /** A request that arrived at {@code startNanos} whose caller closed the connection before its answer went out. */
    public void recordCancelled(long startNanos) {
        if (log != null) {
            CANCELLED.recorder.recordValue(servedMs(System.nanoTime() - startNanos));
        }
    }

    /** A cancelled {@code /delay?ms=N}, counted as its answers are ({@link #recordDelayPath}). */
    public void recordDelayPathCancelled(long startNanos) {
        if (delayPathServes) {
            recordCancelled(startNanos);
        }
    }

    /**
     * The header {@link #CALLER_WAITS_HEADER}: how long the caller will wait, ms ({@code 0} for a negative value: it
     * had stopped already), or {@link #WAITS_UNTIL_ANSWERED} when it is absent or not a whole number.
     */
    public static long callerWaitsMs(HttpHeaders headers) {
        String value = headers.getFirst(CALLER_WAITS_HEADER);
        if (value == null) {
            return WAITS_UNTIL_ANSWERED;
        }
        try {
            return Math.max(0, Long.parseLong(value.strip()));
        } catch (NumberFormatException e) {
            return WAITS_UNTIL_ANSWERED;
        }
    }

    /**
     * The answer, running {@code onCallerGone} when it is cancelled before it was given: on Reactor Netty a caller
     * that closes its connection cancels the handler's pipeline (CallerGoneTests). doFinally sees whichever of
     * complete, error and cancel comes first, so a cancel after the answer completed is none; nor is a subscriber's
     * cancel once it has taken the answer.
     */
    public static <T> Mono<T> onCallerGone(Mono<T> answer, Runnable onCallerGone) {
        AtomicBoolean answered = new AtomicBoolean();
        return answer.doOnNext(a -> answered.set(true)).doFinally(signal -> {
            if (signal == SignalType.CANCEL && !answered.get()) {
                onCallerGone.run();
            }
        });
    }

    /** An answer the brownout delayed, also under its own tag: the harness checks the switch's instants by it. */
    public void recordBrownout(long startNanos) {
        if (log != null) {
            BROWNOUT.recorder.recordValue(servedMs(System.nanoTime() - startNanos));
        }
    }

    private static long servedMs(long elapsedNanos) {
        return Math.max(0, Math.min(Math.round(elapsedNanos / 1e6), MAX_TRACKABLE_MS));
    }

    /** The histograms of the second that just ended; each written only when it holds something. */
    private synchronized void writeSecond() {
        long end = System.currentTimeMillis() / 1000 * 1000;
        for (Tag t : TAGS) {
            t.reuse = t.recorder.getIntervalHistogram(t.reuse);
            if (t.reuse.getTotalCount() > 0 && end > intervalStartMs) {
                t.reuse.setTag(t.name);
                double second = (end - 1000) / 1000.0;
                log.outputIntervalHistogram(second, second + 1, t.reuse, 1.0);
            }
        }
        out.flush();
        intervalStartMs = end;
    }

    @Override
    public void destroy() {
        if (writer != null) {
            writer.shutdownNow();
            writeSecond();
            out.close();
        }
    }
}
