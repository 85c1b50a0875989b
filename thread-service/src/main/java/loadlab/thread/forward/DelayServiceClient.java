package loadlab.thread.forward;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;

import loadlab.thread.metrics.DownstreamCallStats;
import org.springframework.http.HttpStatusCode;
import org.springframework.stereotype.Component;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

/** One blocking call to the delay-service; the calling (request) thread waits for the whole answer. */
@Component
class DelayServiceClient {

    private final RestClient restClient;
    private final DownstreamCallStats stats;
    private final DelayServiceProperties properties;
    private final ClientSetup setup;

    DelayServiceClient(RestClient delayServiceRestClient, DownstreamCallStats stats,
            DelayServiceProperties properties, ClientSetup delayServiceClientSetup) {
        this.restClient = delayServiceRestClient;
        this.stats = stats;
        this.properties = properties;
        this.setup = delayServiceClientSetup;
    }

    DownstreamCall.Reply delay(DelayCall call) {
        URI uri = properties.delayUri(call);
        long start = System.nanoTime();
        try {
            return restClient.get().uri(uri).headers(headers -> {
                if (call.hasCallerWait()) {
                    headers.set(DelayCall.CALLER_WAITS_HEADER, Long.toString(call.callerWaitsMs()));
                }
            }).exchange((request, response) -> {
                HttpStatusCode status = response.getStatusCode();
                if (!status.is2xxSuccessful()) {
                    throw new DownstreamException(DownstreamException.Kind.BAD_STATUS,
                            "The delay-service answered " + status.value() + " for " + uri + ".", status.value(), null);
                }
                return new DownstreamCall.Reply(response.getBody().readAllBytes(),
                        response.getHeaders().getContentType());
            });
        } catch (ResourceAccessException e) {
            throw classify(e, uri);
        } finally {
            stats.record(System.nanoTime() - start);
        }
    }

    private DownstreamException classify(ResourceAccessException e, URI uri) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (ClientFailures.poolFull(t)) {
                return new DownstreamException(DownstreamException.Kind.POOL_FULL, "No connection of "
                        + setup.poolText() + " came free within " + properties.callConnectTimeout().toMillis()
                        + " ms (the connect timeout) for " + uri + ".", null, e);
            }
            // A connect that hangs is a timeout too (the JDK's HttpConnectTimeoutException is a HttpTimeoutException,
            // Netty's ConnectTimeoutException a ConnectException).
            if (ClientFailures.timeout(t)) {
                return new DownstreamException(properties.timeoutKind(),
                        "No answer from " + uri + " within " + limitFor(t) + ".", null, e);
            }
            if (t instanceof ConnectException) {
                return new DownstreamException(DownstreamException.Kind.REFUSED,
                        "Cannot connect to " + uri + ": "
                                + (t.getMessage() != null ? t.getMessage() : "connection refused") + ".", null, e);
            }
        }
        Throwable io = e.getCause() instanceof IOException ? e.getCause() : e;
        return new DownstreamException(DownstreamException.Kind.IO_ERROR,
                "I/O error calling " + uri + ": " + io + ".", null, e);
    }

    private String limitFor(Throwable timeoutException) {
        return ClientFailures.connectTimeout(timeoutException)
                ? "the connect timeout (" + properties.callConnectTimeout().toMillis() + " ms)"
                : properties.callTimeoutText();
    }
}
