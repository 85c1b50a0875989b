package loadlab.orders;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The orders pool takes its size from orders.db-pool, and Boot's standard spring.datasource.hikari.maximum-pool-size
 * over it: the property the lab's prescription names and its ladder passes on the jar's command line. The pool is
 * never started here (it connects at its first use), so no database is needed.
 */
class HikariPropertyTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(Enable.class, OrdersDatabaseConfiguration.class)
            .withPropertyValues("orders.db-url=jdbc:postgresql://127.0.0.1:1/none", "orders.db-pool=2");

    @EnableConfigurationProperties(OrdersProperties.class)
    static class Enable {
    }

    @Test
    void ordersDbPoolSizesThePoolByDefault() {
        runner.run(context -> assertThat(context.getBean(HikariDataSource.class).getMaximumPoolSize()).isEqualTo(2));
    }

    @Test
    void bootsStandardPropertyRaisesIt() {
        runner.withPropertyValues("spring.datasource.hikari.maximum-pool-size=9")
                .run(context -> assertThat(context.getBean(HikariDataSource.class).getMaximumPoolSize()).isEqualTo(9));
    }
}
