package loadlab.thread.metrics;

import java.util.concurrent.atomic.LongAdder;

/**
 * Workload requests started and in flight, whatever the web stack: the servlet filter (ForwardRequestCounter) and
 * the reactive service's WebFilter each call {@link #started()} and {@link #finished()} around one request.
 */
public class WorkloadCounter implements RequestCounts {

    private final LongAdder started = new LongAdder();
    private final LongAdder inflight = new LongAdder();

    public void started() {
        started.increment();
        inflight.increment();
    }

    public void finished() {
        inflight.decrement();
    }

    @Override
    public long total() {
        return started.sum();
    }

    @Override
    public long inflight() {
        return inflight.sum();
    }
}
