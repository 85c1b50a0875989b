package loadlab.delay.downstream;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.HdrHistogram.Recorder;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * The delay each answer was actually served in (from the request's arrival to its answer), one HdrHistogram
 * interval per wall-clock second in {@code downstream.served-log}: the same format, range and precision (ms) as the
 * injectors' latency.hlog, so the harness reads both alike and can prove the stand-in kept to its distribution. A
 * late timer or a starved event loop shows here as a served delay above the drawn one.
 */
@Component
public class ServedDelays implements DisposableBean {

    static final long MAX_TRACKABLE_MS = 3_600_000L;
    static final String TAG = "served";

    private final Recorder recorder = new Recorder(1, MAX_TRACKABLE_MS, 3);
    private final PrintStream out;
    private final HistogramLogWriter log;
    private final ScheduledExecutorService writer;
    private Histogram reuse;
    private long intervalStartMs = System.currentTimeMillis() / 1000 * 1000;

    ServedDelays(DownstreamProperties properties) {
        if (properties.servedLog().isBlank()) {
            out = null;
            log = null;
            writer = null;
            return;
        }
        try {
            Path path = Path.of(properties.servedLog());
            Files.createDirectories(path.toAbsolutePath().getParent());
            out = new PrintStream(new FileOutputStream(path.toFile()), false, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write downstream.served-log " + properties.servedLog(), e);
        }
        log = new HistogramLogWriter(out);
        log.outputComment("delay-service: the delay each answer was served in, ms; interval start = the second "
                + "(Unix epoch s) it was answered in; tag served");
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
        if (log != null) {
            long ms = Math.round((System.nanoTime() - startNanos) / 1e6);
            recorder.recordValue(Math.max(0, Math.min(ms, MAX_TRACKABLE_MS)));
        }
    }

    /** The histogram of the second that just ended; written only when it served something. */
    private synchronized void writeSecond() {
        long end = System.currentTimeMillis() / 1000 * 1000;
        reuse = recorder.getIntervalHistogram(reuse);
        if (reuse.getTotalCount() > 0 && end > intervalStartMs) {
            reuse.setTag(TAG);
            reuse.setStartTimeStamp(end - 1000);
            reuse.setEndTimeStamp(end);
            double second = (end - 1000) / 1000.0;
            log.outputIntervalHistogram(second, second + 1, reuse, 1.0);
            out.flush();
        }
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
