package loadlab.orders;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/** The standard property alone switches the app: nothing of its own is involved. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "spring.threads.virtual.enabled=true")
class VirtualModeTests extends OrdersServiceTests {

    @Test
    void requestsRunOnTomcatsVirtualThreads() {
        // Boot names them tomcat-handler-<n>: what the lab's flight recording counts as the app's request threads.
        assertThat(servingThread()).startsWith("true tomcat-handler-");
    }

    @Test
    void ordersWorkOnVirtualThreads() {
        assertThat(get("/orders/7").body()).contains("\"customer\":7", "\"backendMs\":5");
    }
}
