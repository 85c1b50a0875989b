package loadlab.reactive.db;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.PoolMetrics;
import loadlab.thread.metrics.PoolProbe;
import org.springframework.stereotype.Component;

/** The R2DBC pool as the harness samples it: its size at once, its gauges -1 until the first /db request. */
@Component
class DatabasePoolProbe implements PoolProbe {

    private final ConnectionPool pool;

    private final int max;

    private final AtomicBoolean started = new AtomicBoolean();

    DatabasePoolProbe(ConnectionPool databasePool, DatabaseSettings settings) {
        this.pool = databasePool;
        this.max = settings.hikari().maximumPoolSize();
    }

    /** Called by /db before it asks for a connection: from then on the pool's gauges are real. */
    void starting() {
        started.set(true);
    }

    @Override
    public int max() {
        return max;
    }

    @Override
    public int active() {
        return metrics().map(PoolMetrics::acquiredSize).orElse(-1);
    }

    @Override
    public int idle() {
        return metrics().map(PoolMetrics::idleSize).orElse(-1);
    }

    /** Requests waiting for a connection: with no threads to park, the queue is the pool's own. */
    @Override
    public int pending() {
        return metrics().map(PoolMetrics::pendingAcquireSize).orElse(-1);
    }

    private Optional<PoolMetrics> metrics() {
        return started.get() ? pool.getMetrics() : Optional.empty();
    }
}
