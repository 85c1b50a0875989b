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
 *                       not stretched by {@code ms}, so a request with {@code ms} at or above it gets a 504. The
 *                       harness sets it as its own safety net, above any latency the health rule accepts
 * @param clientTimeout  the service's own client timeout on the call ({@code delay-service.client-timeout}, the
 *                       harness's DOWNSTREAM_TIMEOUT_MS; absent: none), connect and whole response: a guard a
 *                       team sets, answered with its own 504 problem type, apart from the safety net above
 */
@ConfigurationProperties("delay-service")
public record DelayServiceProperties(
        @DefaultValue("http://127.0.0.1:8081") URI url,
        @DefaultValue("2s") Duration connectTimeout,
        @DefaultValue("30s") Duration timeout,
        Duration clientTimeout) {

    public DelayServiceProperties {
        if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme()) || url.getHost() == null) {
            throw new IllegalArgumentException("delay-service.url must be an absolute http(s) URL, got '" + url + "'");
        }
        if (connectTimeout.isNegative() || connectTimeout.isZero() || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException(
                    "delay-service.connect-timeout and delay-service.timeout must be positive");
        }
        if (clientTimeout != null && (clientTimeout.isNegative() || clientTimeout.isZero())) {
            throw new IllegalArgumentException("delay-service.client-timeout must be positive, got " + clientTimeout);
        }
    }

    /** Whether the client timeout, not the safety net, is what ends a slow call: the shorter of the two applies. */
    public boolean clientTimeoutApplies() {
        return clientTimeout != null && clientTimeout.compareTo(timeout) < 0;
    }

    /** The whole call's limit in force: the client timeout when it is the shorter, else the safety net. */
    public Duration callTimeout() {
        return clientTimeoutApplies() ? clientTimeout : timeout;
    }

    /** The connect's limit in force: the client timeout covers the connect too, when it is the shorter. */
    public Duration callConnectTimeout() {
        return clientTimeout != null && clientTimeout.compareTo(connectTimeout) < 0 ? clientTimeout : connectTimeout;
    }

    /** How a timeout of the call is answered: the client timeout's own kind, or the safety net's. */
    public DownstreamException.Kind timeoutKind() {
        return clientTimeoutApplies() ? DownstreamException.Kind.CLIENT_TIMEOUT : DownstreamException.Kind.TIMEOUT;
    }

    /** The words naming the limit that ended a call, for the problem's detail. */
    public String callTimeoutText() {
        return callTimeout().toMillis() + (clientTimeoutApplies()
                ? " ms (delay-service.client-timeout: the service's own client timeout)"
                : " ms (delay-service.timeout)");
    }

    /** The delay-service's {@code /delay?ms=} for a validated {@code ms}: plain concatenation, no template. */
    public URI delayUri(long ms) {
        String base = url.toString();
        return URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/delay?ms=" + ms);
    }

    /** A call's URI: {@link #delayUri(long)}, with {@code &part=i} for a part of a fan-out. */
    public URI delayUri(DelayCall call) {
        URI plain = delayUri(call.ms());
        return call.hasPart() ? URI.create(plain + "&part=" + call.part()) : plain;
    }
}
