package loadlab.orders;

import java.net.URI;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param backendUrl        the pricing backend, called once per request
 * @param backendTimeout    the whole-response limit of that call
 * @param ownRequestThreads > 0: a fixed pool of the app's own platform threads serves requests (see
 *                          {@link OwnRequestThreadsConfiguration}); 0: Tomcat's, as the standard properties say
 */
@ConfigurationProperties("orders")
record OrdersProperties(URI backendUrl, Duration backendTimeout, int ownRequestThreads) {
}
