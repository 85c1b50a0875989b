package loadlab.thread.metrics;

import java.util.concurrent.atomic.LongAdder;

import org.springframework.stereotype.Component;

/**
 * Count and total wall time of outbound delay-service calls, failed ones included; the calls a concurrency limit
 * rejected before they were made (virtual-limited mode), and that limit (-1 where there is none).
 */
@Component
public class DownstreamCallStats {

    private final LongAdder calls = new LongAdder();
    private final LongAdder nanos = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private volatile int concurrencyLimit = -1;

    public void record(long elapsedNanos) {
        calls.increment();
        nanos.add(elapsedNanos);
    }

    /** A call the concurrency limit refused: it never reached the downstream, so it is not a call. */
    public void recordRejection() {
        rejected.increment();
    }

    /** The limit in force on the downstream call, set once by the limited call at start. */
    public void limitedTo(int limit) {
        concurrencyLimit = limit;
    }

    int concurrencyLimit() {
        return concurrencyLimit;
    }

    long rejected() {
        return rejected.sum();
    }

    long calls() {
        return calls.sum();
    }

    double totalMillis() {
        return nanos.sum() / 1_000_000.0;
    }
}
