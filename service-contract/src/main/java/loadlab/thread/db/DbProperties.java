package loadlab.thread.db;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code db.query-timeout}: how long the one query of /db may run before the service gives up with a 504. The harness
 * sets it from the workload (DELAY_MS plus a margin); the default covers the longest {@code ms} allowed (60 s).
 * How long a request waits for a pool connection is HikariCP's own
 * {@code spring.datasource.hikari.connection-timeout}.
 */
@ConfigurationProperties("db")
public record DbProperties(@DefaultValue("65s") Duration queryTimeout) {
    public DbProperties {
        if (queryTimeout.isNegative() || queryTimeout.isZero()) {
            throw new IllegalArgumentException("db.query-timeout must be > 0, got " + queryTimeout);
        }
    }
}
