package loadlab.orders;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "server.tomcat.threads.max=7")
class PlatformModeTests extends OrdersServiceTests {

    @Test
    void ordersArePricedByTheBackendAndAnsweredAsJson() {
        HttpResponse<String> response = get("/orders/42");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));
        assertThat(response.body()).contains("\"customer\":42", "\"backendMs\":5", "\"sku\":\"SKU-421\"",
                "\"totalCents\":");
    }

    @Test
    void byDefaultRequestsRunOnTomcatsPlatformPool() {
        // Tomcat's worker names (http-nio-<port>-exec-<n>) are what the lab counts to see the pool size take effect.
        assertThat(servingThread()).startsWith("false http-nio-").contains("-exec-");
    }
}
