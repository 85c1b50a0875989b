package loadlab.gatling.recorder;

import java.io.BufferedWriter;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Map;

import loadlab.gatling.config.Schedule;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * The raw files of one injector (see docs/ARCHITECTURE.md). Every completed second is flushed to disk at once
 * so a crash or Ctrl-C keeps what was measured.
 */
public final class RawFiles implements AutoCloseable {

    public static final String HLOG = "latency.hlog";
    public static final String SECONDS = "seconds.csv";
    public static final String META = "meta.json";
    public static final String CSV_HEADER = "second,phase,level,target_rps,sent,ok,ko,inflight";
    /** Failed requests by {@link ErrorKind}, per completion second; a row only for a kind seen in that second. */
    public static final String ERRORS = "errors.csv";
    public static final String ERRORS_HEADER = "second,kind,count";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path dir;
    private final PrintStream hlogStream;
    private final HistogramLogWriter hlog;
    private final BufferedWriter csv;
    private final BufferedWriter errors;
    private boolean closed;

    /** Creates (or truncates) the files and writes their headers. */
    public RawFiles(Path dir, String comment, long startEpochMs) {
        try {
            this.dir = Files.createDirectories(dir);
            hlogStream = new PrintStream(new FileOutputStream(dir.resolve(HLOG).toFile()), false,
                    StandardCharsets.US_ASCII);
            hlog = new HistogramLogWriter(hlogStream);
            hlog.outputComment(comment);
            hlog.outputComment("values in ms; interval start = completion second (Unix epoch s); tags ok (200), ko");
            hlog.outputLogFormatVersion();
            hlog.outputStartTime(startEpochMs);
            // Base time 0: interval start timestamps are absolute epoch seconds, so injectors merge by timestamp.
            hlog.setBaseTime(0);
            hlog.outputBaseTime(0);
            hlog.outputLegend();
            hlogStream.flush();
            csv = Files.newBufferedWriter(dir.resolve(SECONDS), StandardCharsets.UTF_8);
            csv.write(CSV_HEADER);
            csv.newLine();
            errors = Files.newBufferedWriter(dir.resolve(ERRORS), StandardCharsets.UTF_8);
            errors.write(ERRORS_HEADER);
            errors.newLine();
            errors.flush();
            csv.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write raw files in " + dir, e);
        }
    }

    public Path dir() {
        return dir;
    }

    /** One second: its hlog intervals (a tag only when it has completions) and its seconds.csv row. */
    public synchronized void writeSecond(SecondRecorder.SecondStats s, Schedule.SecondPlan plan) {
        if (closed) {
            return;
        }
        writeInterval(s.second(), "ok", s.okHistogram());
        writeInterval(s.second(), "ko", s.koHistogram());
        hlogStream.flush();
        try {
            csv.write(s.second() + "," + plan.phase() + "," + plan.level() + "," + rate(plan.targetRps()) + ","
                    + s.sent() + "," + s.ok() + "," + s.ko() + "," + s.inflight());
            csv.newLine();
            csv.flush();
            ErrorKind[] kinds = ErrorKind.values();
            for (int k = 0; k < kinds.length; k++) {
                if (s.koByKind()[k] > 0) {
                    errors.write(s.second() + "," + kinds[k].id() + "," + s.koByKind()[k]);
                    errors.newLine();
                }
            }
            errors.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void writeInterval(long second, String tag, Histogram h) {
        if (h.getTotalCount() == 0) {
            return;
        }
        h.setTag(tag);
        h.setStartTimeStamp(second * 1000);
        h.setEndTimeStamp(second * 1000 + 1000);
        // Ratio 1: values are already ms, so the max column reads in ms too.
        hlog.outputIntervalHistogram(second, second + 1, h, 1.0);
    }

    /** Replaced atomically, so a reader never sees half a file. */
    public synchronized void writeMeta(Map<String, Object> meta) {
        try {
            Path tmp = dir.resolve(META + ".tmp");
            JSON.writeValue(tmp.toFile(), meta);
            Files.move(tmp, dir.resolve(META), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve(META), e);
        }
    }

    /** Up to 3 decimals, no trailing zeros: 250, 33.333. */
    public static String rate(double rps) {
        String s = String.format(Locale.ROOT, "%.3f", rps);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        hlog.close();
        try {
            csv.close();
            errors.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
