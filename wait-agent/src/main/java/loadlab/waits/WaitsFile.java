package loadlab.waits;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The agent's output, one tab-separated row a line, written as each second closes (a crash loses at most the
 * second under way). A stack is written once, with an id its later rows name, so a run of minutes stays small:
 * <pre>
 * # loadlab-waits 1 &lt;key=value ...&gt;          what sampled: period, budget, JDK
 * K id stack                                  a stack seen for the first time (root first, frames joined by ;)
 * T second count kind state blocker id        threads of that second's samples in that state on that stack
 * S second samples cpu_ms threads             the second's samples: how many, their CPU, threads seen
 * E second message                            sampling stopped, and why
 * </pre>
 * {@code second} is the epoch second the sample was taken in; the harness reads the file
 * (harness/loadlab/summary/reading/waits.py) and keeps this layout's version in step ({@link #VERSION}).
 */
final class WaitsFile implements AutoCloseable {

    static final int VERSION = 1;

    private final BufferedWriter out;
    private final Map<String, Integer> stackIds = new HashMap<>();
    private final Map<String, Integer> counts = new LinkedHashMap<>();
    private long second = -1;
    private int samples;
    private long cpuNanos;
    private int threads;

    WaitsFile(Path file, String header) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        out.write("# loadlab-waits " + VERSION + " " + header + "\n");
        out.flush();
    }

    synchronized void add(long epochSecond, Iterable<SampledThread> sampled, long sampleCpuNanos) throws IOException {
        if (epochSecond != second) {
            closeSecond();
            second = epochSecond;
        }
        samples++;
        cpuNanos += sampleCpuNanos;
        for (SampledThread t : sampled) {
            threads++;
            Integer id = stackIds.get(t.stack());
            if (id == null) {
                id = stackIds.size() + 1;
                stackIds.put(t.stack(), id);
                out.write("K\t" + id + "\t" + t.stack() + "\n");
            }
            counts.merge(t.kind() + "\t" + t.state() + "\t" + t.blocker() + "\t" + id, 1, Integer::sum);
        }
    }

    synchronized void stopped(long epochSecond, String why) throws IOException {
        closeSecond();
        out.write("E\t" + epochSecond + "\t" + why.replace('\t', ' ').replace('\n', ' ') + "\n");
        out.flush();
    }

    private void closeSecond() throws IOException {
        if (second < 0 || samples == 0) {
            return;
        }
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            String[] key = e.getKey().split("\t", 4);
            out.write("T\t" + second + "\t" + e.getValue() + "\t" + key[0] + "\t" + key[1] + "\t" + key[2] + "\t"
                    + key[3] + "\n");
        }
        out.write("S\t" + second + "\t" + samples + "\t" + cpuNanos / 1_000_000 + "\t" + threads + "\n");
        out.flush();
        counts.clear();
        samples = 0;
        cpuNanos = 0;
        threads = 0;
    }

    @Override
    public synchronized void close() throws IOException {
        closeSecond();
        out.close();
    }
}
