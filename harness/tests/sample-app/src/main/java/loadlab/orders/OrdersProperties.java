package loadlab.orders;

import java.net.URI;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param backendUrl        the pricing backend, called once per request
 * @param pricingBaseUrl    when set, the backend is called as a REST service is, at {@code {base}/prices/{customer}}
 *                          (the lab passes its delay-service's base URL as {downstream_url}); backendUrl is then unused
 * @param backendTimeout    the whole-response limit of that call
 * @param ownRequestThreads > 0: a fixed pool of the app's own platform threads serves requests (see
 *                          {@link OwnRequestThreadsConfiguration}); 0: Tomcat's, as the standard properties say
 * @param dbUrl             a PostgreSQL JDBC URL, or empty for no database (see {@link OrdersDatabaseConfiguration})
 * @param dbPool            the HikariCP pool's size
 * @param dbHold            how long each order holds a connection (one pg_sleep query)
 * @param pricingPermits    > 0: at most this many pricing calls at once, the rest waiting for a permit (a bulkhead
 *                          an app writes itself: a {@link java.util.concurrent.Semaphore} no setting sizes); 0: none
 */
@ConfigurationProperties("orders")
record OrdersProperties(URI backendUrl, String pricingBaseUrl, Duration backendTimeout, int ownRequestThreads,
        String dbUrl, int dbPool,
        Duration dbHold, int pricingPermits) {
}
