package loadlab.thread.forward;

import java.net.URI;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where and how patiently to call the delay-service.
 *
 * @param url            base URL, no path ({@code delay-service.url})
 * @param connectTimeout TCP connect limit ({@code delay-service.connect-timeout})
 * @param timeout        limit for the whole response, headers and body ({@code delay-service.timeout}); it is
 *                       not stretched by {@code ms}, so a request with {@code ms} at or above it gets a 504
 */
@ConfigurationProperties("delay-service")
public record DelayServiceProperties(
        @DefaultValue("http://127.0.0.1:8081") URI url,
        @DefaultValue("2s") Duration connectTimeout,
        @DefaultValue("30s") Duration timeout) {

    public DelayServiceProperties {
        if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme()) || url.getHost() == null) {
            throw new IllegalArgumentException("delay-service.url must be an absolute http(s) URL, got '" + url + "'");
        }
        if (connectTimeout.isNegative() || connectTimeout.isZero() || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException(
                    "delay-service.connect-timeout and delay-service.timeout must be positive");
        }
    }

    /** The delay-service's {@code /delay?ms=} for a validated {@code ms}: plain concatenation, no template. */
    public URI delayUri(long ms) {
        String base = url.toString();
        return URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/delay?ms=" + ms);
    }
}
