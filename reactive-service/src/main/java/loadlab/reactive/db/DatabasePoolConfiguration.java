package loadlab.reactive.db;

import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionFactoryProvider;
import io.r2dbc.spi.ConnectionFactories;
import io.r2dbc.spi.ConnectionFactoryOptions;
import loadlab.thread.db.DbProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The R2DBC pool of DB_POOL connections. Nothing connects at start-up (the service runs without a database in the
 * other scenarios): the pool opens its connections at the first /db request (the harness's smoke request, before any
 * load) and keeps all of them, as HikariCP's fixed-size pool does in the thread-service.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DatabaseSettings.class)
class DatabasePoolConfiguration {

    @Bean(destroyMethod = "dispose")
    ConnectionPool databasePool(DatabaseSettings settings, DbProperties db) {
        ConnectionFactoryOptions.Builder options = ConnectionFactoryOptions.parse(settings.r2dbcUrl()).mutate()
            .option(ConnectionFactoryOptions.USER, settings.username())
            // PostgreSQL's own statement_timeout: past it the server cancels the query (SQLSTATE 57014), the same
            // limit and the same error the thread-service gets from its driver.
            .option(PostgresqlConnectionFactoryProvider.STATEMENT_TIMEOUT, db.queryTimeout());
        if (settings.password() != null) {
            options.option(ConnectionFactoryOptions.PASSWORD, settings.password());
        }
        int size = settings.hikari().maximumPoolSize();
        return new ConnectionPool(ConnectionPoolConfiguration.builder(ConnectionFactories.get(options.build()))
            .name("db")
            .initialSize(size)
            .minIdle(size)
            .maxSize(size)
            .maxAcquireTime(settings.hikari().connectionTimeout())
            .build());
    }
}
