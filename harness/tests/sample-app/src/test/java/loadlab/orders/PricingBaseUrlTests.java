package loadlab.orders;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** With a base URL the app calls its downstream at {@code {base}/prices/{customer}}, as a REST client does. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class PricingBaseUrlTests extends OrdersServiceTests {

    @DynamicPropertySource
    static void pricingBase(DynamicPropertyRegistry registry) {
        registry.add("orders.pricing-base-url", BACKEND::baseUrl);
    }

    @Test
    void ordersAskTheDownstreamAtItsOwnPath() {
        assertThat(get("/orders/42").statusCode()).isEqualTo(200);
        assertThat(BackendStub.LAST_PATH.get()).isEqualTo("/prices/42");
    }
}
