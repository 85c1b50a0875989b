package loadlab.thread.cpu;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.LongAdder;

import loadlab.thread.api.MillisParameter;
import org.springframework.stereotype.Component;

/**
 * A fixed amount of real computation per request: {@code cpuMs} is turned into a number of iterations once, from a
 * calibration at start-up, so a request always does the same work. Under contention that work takes longer (as real
 * computation does); a busy-wait on the clock would instead finish on time and hide the CPU limit.
 */
@Component
public class CpuWork {

    static final String PARAMETER = "cpuMs";

    private static final long CALIBRATION_ITERATIONS = 20_000_000L;

    private static final int CALIBRATION_ROUNDS = 5;

    private final double iterationsPerMs;

    private final MillisParameter optional;

    private final MillisParameter required;

    private final LongAdder workMs = new LongAdder();

    // Written after each piece of work so the JIT must compute it; never read for anything else.
    @SuppressWarnings("unused")
    private volatile long sink;

    CpuWork(CpuProperties properties) {
        this.optional = MillisParameter.optional(PARAMETER, 0, properties.maxMs(), 0);
        this.required = MillisParameter.required(PARAMETER, 1, properties.maxMs());
        this.iterationsPerMs = calibrate();
    }

    /** {@code cpuMs} where it adds to a wait (/forward, /db, /pinned): optional, 0 by default. */
    public long parseOptional(String raw) {
        return optional.parse(raw);
    }

    /** {@code cpuMs} of /cpu, where it is the whole request: required, at least 1. */
    public long parseRequired(String raw) {
        return required.parse(raw);
    }

    /** Computes for about {@code ms} of one core's time (as calibrated); returns at once for 0. */
    public void run(long ms) {
        if (ms <= 0) {
            return;
        }
        sink = spin(Math.round(ms * iterationsPerMs), System.nanoTime() | 1);
        workMs.add(ms);
    }

    /** Iterations per millisecond of CPU time, measured at start-up. */
    public double iterationsPerMs() {
        return iterationsPerMs;
    }

    /** Milliseconds of computation requested and done since start. */
    public long workMsTotal() {
        return workMs.sum();
    }

    // xorshift64: a dependent chain of integer operations the JIT can neither vectorise nor skip.
    static long spin(long iterations, long seed) {
        long x = seed;
        for (long i = 0; i < iterations; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    // Timed by this thread's CPU time, not the wall clock, so a machine busy at start-up does not skew it; the best
    // of several rounds, after the loop is compiled.
    private double calibrate() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        boolean cpuTime = threads.isCurrentThreadCpuTimeSupported();
        for (int i = 0; i < CALIBRATION_ROUNDS; i++) {
            sink = spin(CALIBRATION_ITERATIONS / 4, i + 1);
        }
        long best = Long.MAX_VALUE;
        for (int i = 0; i < CALIBRATION_ROUNDS; i++) {
            long start = cpuTime ? threads.getCurrentThreadCpuTime() : System.nanoTime();
            sink = spin(CALIBRATION_ITERATIONS, i + 7);
            long took = (cpuTime ? threads.getCurrentThreadCpuTime() : System.nanoTime()) - start;
            best = Math.min(best, Math.max(took, 1));
        }
        return CALIBRATION_ITERATIONS / (best / 1_000_000.0);
    }
}
