package loadlab.orders;

import com.zaxxer.hikari.HikariDataSource;

import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * orders.db-url set: a HikariCP pool of orders.db-pool connections to it. Made by the no-argument constructor, so the
 * pool starts at its first use, after Boot's metrics binder has given it Micrometer (hikaricp.connections.* gauges
 * and the usage timer the lab reads through Actuator).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnExpression("!'${orders.db-url:}'.isEmpty()")
class OrdersDatabaseConfiguration {

    @Bean(destroyMethod = "close")
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
