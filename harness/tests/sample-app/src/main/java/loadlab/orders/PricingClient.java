package loadlab.orders;

import java.net.http.HttpClient;
import java.util.concurrent.Semaphore;

import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

/** One blocking call to the pricing backend per order; the request thread waits for the whole answer. */
@Component
class PricingClient {

    /** What the backend answers (the lab's /delay: how long it waited; a REST downstream's {@code {}}: null). */
    record Quote(Long delayMs) {
        long waitedMs() {
            return delayMs == null ? 0 : delayMs;
        }
    }

    private final RestClient restClient;
    private final OrdersProperties properties;
    private final Semaphore permits; // null: no bulkhead

    PricingClient(RestClient.Builder builder, OrdersProperties properties) {
        // HTTP/1.1: the JDK client would otherwise try an h2c upgrade on every new connection.
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory(client);
        factory.setReadTimeout(properties.backendTimeout());
        this.restClient = builder.requestFactory(factory).build();
        this.properties = properties;
        this.permits = properties.pricingPermits() > 0 ? new Semaphore(properties.pricingPermits()) : null;
    }

    /** At most pricingPermits calls at once when set: the others park on the Semaphore until one is released. */
    Quote quote(long customer) {
        if (permits == null) {
            return call(customer);
        }
        permits.acquireUninterruptibly();
        try {
            return call(customer);
        } finally {
            permits.release();
        }
    }

    /** With a base URL, {@code GET {base}/prices/{customer}} as an app with a REST downstream calls it. */
    private Quote call(long customer) {
        String base = properties.pricingBaseUrl();
        if (base != null && !base.isBlank()) {
            return restClient.get().uri(base + "/prices/{customer}", customer).retrieve().body(Quote.class);
        }
        return restClient.get().uri(properties.backendUrl()).retrieve().body(Quote.class);
    }
}
