package loadlab.orders;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.tomcat.TomcatProtocolHandlerCustomizer;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * orders.own-request-threads > 0: Tomcat serves on the app's own fixed pool of platform threads, set after Boot's
 * own customizers so it wins over spring.threads.virtual.enabled and server.tomcat.threads.max. Real services do this
 * (a tuned executor from before virtual threads existed) and then do not switch; the lab's live-config check must
 * catch it, and this is how its tests cause it.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnExpression("${orders.own-request-threads:0} > 0")
class OwnRequestThreadsConfiguration {

    static final String THREAD_PREFIX = "orders-own-";

    @Bean(destroyMethod = "shutdownNow")
    ExecutorService ownRequestThreads(OrdersProperties properties) {
        return Executors.newFixedThreadPool(properties.ownRequestThreads(),
                Thread.ofPlatform().name(THREAD_PREFIX, 0).factory());
    }

    @Bean
    OwnExecutorCustomizer ownRequestThreadsCustomizer(ExecutorService ownRequestThreads) {
        return new OwnExecutorCustomizer(ownRequestThreads);
    }

    /** Runs last among the factory's customizers, so its executor replaces the one Boot's mode chose. */
    record OwnExecutorCustomizer(ExecutorService executor)
            implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

        @Override
        public void customize(TomcatServletWebServerFactory factory) {
            TomcatProtocolHandlerCustomizer<?> own = handler -> handler.setExecutor(executor);
            factory.addProtocolHandlerCustomizers(own);
        }

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE;
        }
    }
}
