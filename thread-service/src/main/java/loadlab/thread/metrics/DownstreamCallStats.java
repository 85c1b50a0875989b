package loadlab.thread.metrics;

import java.util.concurrent.atomic.LongAdder;

import org.springframework.stereotype.Component;

/** Count and total wall time of outbound delay-service calls, failed ones included. */
@Component
public class DownstreamCallStats {

    private final LongAdder calls = new LongAdder();
    private final LongAdder nanos = new LongAdder();

    public void record(long elapsedNanos) {
        calls.increment();
        nanos.add(elapsedNanos);
    }

    long calls() {
        return calls.sum();
    }

    double totalMillis() {
        return nanos.sum() / 1_000_000.0;
    }
}
