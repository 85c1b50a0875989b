package loadlab.thread.db;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import loadlab.thread.metrics.PoolProbe;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * HikariCP's pool as the harness samples it. The pool starts at the first /db request (the service must run
 * without a database in the other scenarios), so its gauges are -1 until then; its configured size is known at once.
 */
@Component
public class DatabasePoolProbe implements PoolProbe {

    private final ObjectProvider<DataSource> dataSource;

    DatabasePoolProbe(ObjectProvider<DataSource> dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public int active() {
        HikariPoolMXBean pool = pool();
        return pool != null ? pool.getActiveConnections() : -1;
    }

    @Override
    public int idle() {
        HikariPoolMXBean pool = pool();
        return pool != null ? pool.getIdleConnections() : -1;
    }

    /** Requests waiting for a connection: the queue that virtual threads move from Tomcat into the pool. */
    @Override
    public int pending() {
        HikariPoolMXBean pool = pool();
        return pool != null ? pool.getThreadsAwaitingConnection() : -1;
    }

    @Override
    public int max() {
        return dataSource.getIfAvailable() instanceof HikariDataSource hikari ? hikari.getMaximumPoolSize() : -1;
    }

    private HikariPoolMXBean pool() {
        return dataSource.getIfAvailable() instanceof HikariDataSource hikari && hikari.isRunning()
                ? hikari.getHikariPoolMXBean() : null;
    }
}
