package loadlab.waits;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Samples every thread, virtual ones included, from the JDK's JSON thread dump
 * ({@code HotSpotDiagnosticMXBean.dumpThreads}): on JDK 25 JFR records none of a virtual thread's parks or monitor
 * waits, and a dump lists each with its stack and state. In process, so no JVM starts per sample (a {@code jcmd}
 * costs about a third of a CPU-second). The pause between samples stretches so the sampler's own CPU stays within
 * its budget: under heavy load it samples less, and the file says how often it did.
 */
final class DumpSampler implements Runnable {

    static final String THREAD_NAME = "loadlab-wait-sampler";

    private final WaitsFile file;
    private final AgentOptions options;
    private final Path dumpDir;
    private final HotSpotDiagnosticMXBean diagnostics =
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    DumpSampler(WaitsFile file, AgentOptions options, Path dumpDir) {
        this.file = file;
        this.options = options;
        this.dumpDir = dumpDir;
    }

    @Override
    public void run() {
        long second = System.currentTimeMillis() / 1000;
        try {
            while (!Thread.currentThread().isInterrupted()) {
                long started = System.currentTimeMillis();
                second = started / 1000;
                long cpu = threads.getCurrentThreadCpuTime();
                List<SampledThread> sampled = sample();
                long cost = threads.getCurrentThreadCpuTime() - cpu;
                file.add(second, sampled, cost);
                long pause = Math.max(options.periodMs(), (long) (cost / 1e6 / options.budget()));
                Thread.sleep(Math.max(1, pause - (System.currentTimeMillis() - started)));
            }
        } catch (InterruptedException stop) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException failure) {
            try {
                file.stopped(second, failure.toString());
            } catch (IOException ignored) {
                // nowhere left to say it: the harness reads a file that ends without its last seconds
            }
        }
    }

    List<SampledThread> sample() throws IOException {
        Path dump = dumpDir.resolve("dump.json");
        Files.deleteIfExists(dump);
        diagnostics.dumpThreads(dump.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
        String text = Files.readString(dump, StandardCharsets.UTF_8);
        Files.delete(dump);
        return threadsOf(Json.parse(text), Long.toString(Thread.currentThread().threadId()));
    }

    /** Every thread of the dump but the one that took it (the sampler leaves itself out). */
    static List<SampledThread> threadsOf(Object dump, String samplerTid) {
        List<SampledThread> out = new ArrayList<>();
        Map<?, ?> root = (Map<?, ?>) ((Map<?, ?>) dump).get("threadDump");
        for (Object container : (List<?>) root.get("threadContainers")) {
            for (Object thread : (List<?>) ((Map<?, ?>) container).get("threads")) {
                Map<?, ?> t = (Map<?, ?>) thread;
                if (!samplerTid.equals(String.valueOf(t.get("tid")))) {
                    out.add(SampledThread.of(t));
                }
            }
        }
        return out;
    }
}
