package loadlab.management;

import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;

/**
 * Keeps the management server (port 8090) on Tomcat's own platform-thread pool in both modes. In virtual mode
 * Boot would hand it virtual threads too, and at the virtual-mode knee, with every carrier busy and thousands of
 * virtual threads queued, the harness's once-a-second sample would wait in that queue: exactly when it matters.
 * <p>
 * Applied to the management child context only (listed in ManagementContextConfiguration.imports); the package
 * sits outside {@code loadlab.thread} so component scanning never applies it to the request server.
 */
@ManagementContextConfiguration(value = ManagementContextType.CHILD, proxyBeanMethods = false)
class ManagementServerThreadsConfiguration {

    @Bean
    PlatformThreadsCustomizer managementServerPlatformThreads() {
        return new PlatformThreadsCustomizer();
    }

    /** Runs after Boot's virtual-threads customizer (order 1) and undoes it: no executor = Tomcat's own pool. */
    static class PlatformThreadsCustomizer
            implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory>, Ordered {

        @Override
        public void customize(ConfigurableTomcatWebServerFactory factory) {
            factory.addProtocolHandlerCustomizers(protocolHandler -> protocolHandler.setExecutor(null));
        }

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE;
        }
    }
}
