package loadlab.thread.metrics;

import java.util.concurrent.atomic.LongAdder;

import org.springframework.stereotype.Component;

/**
 * Count and total wall time of outbound delay-service calls, failed ones included; the calls a concurrency limit
 * rejected before they were made (virtual-limited mode), and that limit (-1 where there is none); the client that
 * makes them and its pool.
 */
@Component
public class DownstreamCallStats {

    private final LongAdder calls = new LongAdder();
    private final LongAdder nanos = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private volatile int concurrencyLimit = -1;
    private volatile String client = "none";
    private volatile int clientPoolPerRoute = -1;
    private volatile int clientPoolTotal = -1;

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

    /**
     * The HTTP client the call goes through (jdk, apache, reactor; the reactive service's WebClient) and its
     * effective connection pool, per route and in all (-1: no cap), set once when the client is built.
     */
    public void usesClient(String name, int poolPerRoute, int poolTotal) {
        client = name;
        clientPoolPerRoute = poolPerRoute;
        clientPoolTotal = poolTotal;
    }

    String client() {
        return client;
    }

    int clientPoolPerRoute() {
        return clientPoolPerRoute;
    }

    int clientPoolTotal() {
        return clientPoolTotal;
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
