package loadlab.thread.metrics;

/**
 * The db scenario's connection pool as the harness samples it (HikariCP in the thread-service, r2dbc-pool in the
 * reactive service): its configured size at once, its gauges -1 until the first /db request starts it.
 */
public interface PoolProbe {

    int max();

    int active();

    int idle();

    int pending();
}
