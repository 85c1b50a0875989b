package loadlab.reactive.db;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.bind.Name;

/**
 * The db scenario's database and pool, read from the thread-service's own settings (spring.datasource.*), so the
 * harness and a user configure both services with the same arguments: {@code url} (jdbc:postgresql://…, read as
 * r2dbc:postgresql://…), {@code username}, {@code password}, {@code hikari.maximum-pool-size} (DB_POOL: R2DBC pool
 * size) and {@code hikari.connection-timeout} (how long a request waits for a pool connection before its 503).
 */
@ConfigurationProperties("spring.datasource")
record DatabaseSettings(@DefaultValue("jdbc:postgresql://127.0.0.1:5432/loadlab") String url,
        @DefaultValue("loadlab") String username, String password, @DefaultValue Pool hikari) {

    record Pool(@DefaultValue("10") @Name("maximum-pool-size") int maximumPoolSize,
            @DefaultValue("30000") @Name("connection-timeout") long connectionTimeoutMs) {

        Pool {
            if (maximumPoolSize < 1) {
                throw new IllegalArgumentException(
                        "spring.datasource.hikari.maximum-pool-size must be >= 1, got " + maximumPoolSize);
            }
        }

        Duration connectionTimeout() {
            // Hikari's 0 means wait forever; a Duration of 0 would mean no wait at all.
            return connectionTimeoutMs > 0 ? Duration.ofMillis(connectionTimeoutMs) : Duration.ofDays(1);
        }
    }

    /** The R2DBC form of the JDBC url: same host, port, database and query options. */
    String r2dbcUrl() {
        if (!url.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException(
                    "spring.datasource.url must be a jdbc:postgresql: url, got '" + url + "'");
        }
        return "r2dbc:" + url.substring("jdbc:".length());
    }
}
