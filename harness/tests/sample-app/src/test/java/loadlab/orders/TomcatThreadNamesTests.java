package loadlab.orders;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * The thread names the lab counts on an app's host (harness/loadlab/core/app.py, TOMCAT_NIO_PREFIX and
 * TOMCAT_NIO_OWN_THREADS): Tomcat's NIO connector names every thread of its own `http-nio-<address>-<port>-…`, two
 * of them (Acceptor, Poller) whatever the mode, and its platform request pool `…-exec-<n>`, which virtual mode has
 * none of.
 */
class TomcatThreadNamesTests {

    /** This app's connector threads (other test classes' cached contexts run connectors on other ports). */
    static List<String> connectorThreads(int port) {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(n -> n.startsWith("http-nio-127.0.0.1-" + port + "-")).sorted().toList();
    }

    @SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
            properties = {"server.address=127.0.0.1", "spring.threads.virtual.enabled=true"})
    static class Virtual extends OrdersServiceTests {

        @Test
        void onlyTheConnectorsOwnTwoThreads() {
            assertThat(get("/orders/1").statusCode()).isEqualTo(200);
            assertThat(connectorThreads(port)).hasSize(2)
                    .allMatch(n -> n.endsWith("-Acceptor") || n.endsWith("-Poller"));
        }
    }

    @SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
            properties = {"server.address=127.0.0.1", "server.tomcat.threads.max=30"})
    static class Platform extends OrdersServiceTests {

        @Test
        void theConnectorsTwoThreadsAndItsRequestPool() {
            assertThat(get("/orders/1").statusCode()).isEqualTo(200);
            List<String> pool = connectorThreads(port).stream().filter(n -> n.contains("-exec-")).toList();
            assertThat(pool).isNotEmpty().hasSizeLessThanOrEqualTo(30);
            assertThat(connectorThreads(port)).hasSize(pool.size() + 2);
        }
    }
}
