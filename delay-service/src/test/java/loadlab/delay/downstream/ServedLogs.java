package loadlab.delay.downstream;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/** The served log as the harness reads it, while it is being written: each tag's answers in its whole lines so far. */
final class ServedLogs {

    private ServedLogs() {
    }

    /** The answers of each tag (a tag with none is absent). */
    static Map<String, Long> counts(Path log) throws IOException {
        Map<String, Long> counts = new HashMap<>();
        for (Histogram h : intervals(log)) {
            counts.merge(h.getTag(), h.getTotalCount(), Long::sum);
        }
        return counts;
    }

    /** The largest value recorded under {@code tag}, ms (0 without any). */
    static long max(Path log, String tag) throws IOException {
        return intervals(log).stream().filter(h -> tag.equals(h.getTag())).mapToLong(Histogram::getMaxValue).max()
                .orElse(0);
    }

    /** The intervals of the log's complete lines: the writer may be in the middle of one. */
    private static List<Histogram> intervals(Path log) throws IOException {
        byte[] bytes = Files.readAllBytes(log);
        int end = bytes.length;
        while (end > 0 && bytes[end - 1] != '\n') {
            end--;
        }
        List<Histogram> out = new ArrayList<>();
        HistogramLogReader reader = new HistogramLogReader(new ByteArrayInputStream(bytes, 0, end));
        for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram()) {
            out.add((Histogram) h);
        }
        reader.close();
        return out;
    }
}
