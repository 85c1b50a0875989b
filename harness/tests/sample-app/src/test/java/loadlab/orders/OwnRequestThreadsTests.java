package loadlab.orders;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/** The app that ignores the switch: asked for virtual threads, it still serves on its own platform pool. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"spring.threads.virtual.enabled=true", "orders.own-request-threads=3"})
class OwnRequestThreadsTests extends OrdersServiceTests {

    @Test
    void requestsStayOnTheAppsOwnPlatformThreads() {
        assertThat(servingThread()).startsWith("false " + OwnRequestThreadsConfiguration.THREAD_PREFIX);
    }

    @Test
    void ordersStillWork() {
        assertThat(get("/orders/1").statusCode()).isEqualTo(200);
    }
}
