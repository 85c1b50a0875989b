package loadlab.orders;

import com.zaxxer.hikari.HikariDataSource;

import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * orders.db-url set: a HikariCP pool of orders.db-pool connections to it. Made by the no-argument constructor, so the
 * pool starts at its first use, after Boot's metrics binder has given it Micrometer (hikaricp.connections.* gauges
 * and the usage timer the lab reads through Actuator).
 *
 * <p>Boot's own spring.datasource.hikari.* properties are bound onto it after orders.db-pool, the way Boot's docs
 * configure a DataSource of one's own: a team raises the pool with the standard property
 * (spring.datasource.hikari.maximum-pool-size), which is what the lab's prescription names and its ladder applies.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnExpression("!'${orders.db-url:}'.isEmpty()")
class OrdersDatabaseConfiguration {

    @Bean(destroyMethod = "close")
    @ConfigurationProperties("spring.datasource.hikari")
    HikariDataSource ordersDataSource(OrdersProperties properties) {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(properties.dbUrl());
        pool.setMaximumPoolSize(properties.dbPool());
        pool.setMinimumIdle(properties.dbPool());
        pool.setPoolName("orders");
        return pool;
    }

    @Bean
    JdbcTemplate ordersJdbc(HikariDataSource ordersDataSource) {
        return new JdbcTemplate(ordersDataSource);
    }
}
