package loadlab.reactive.forward;

import java.net.ConnectException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import loadlab.thread.forward.DelayCall;
import loadlab.thread.forward.DelayServiceProperties;
import loadlab.thread.forward.DownstreamException;
import loadlab.thread.metrics.DownstreamCallStats;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;

/**
 * One non-blocking call to the delay-service: no thread waits for it; the answer continues the request on an event
 * loop. Fails with the thread-service's own causes ({@link DownstreamException}), so the caller gets the same
 * problem answer whichever service it asked. Public: each call of /fanout is one.
 */
@Component
public class DelayServiceCall {

    private final WebClient client;

    private final DownstreamCallStats stats;

    private final DelayServiceProperties properties;

    private final Duration timeout;

    DelayServiceCall(WebClient delayServiceWebClient, DownstreamCallStats stats,
            DelayServiceProperties properties) {
        this.client = delayServiceWebClient;
        this.stats = stats;
        this.properties = properties;
        this.timeout = properties.callTimeout();
    }

    /**
     * The delay-service's answer, body and type, as this service's own 200. The call is built when subscribed: a
     * fan-out's call then carries how long its caller still waits at the moment it is sent.
     */
    public Mono<ResponseEntity<byte[]>> delay(Supplier<DelayCall> next) {
        return Mono.defer(() -> {
            DelayCall call = next.get();
            URI uri = properties.delayUri(call);
            long start = System.nanoTime();
            return client.get().uri(uri).headers(headers -> {
                if (call.hasCallerWait()) {
                    headers.set(DelayCall.CALLER_WAITS_HEADER, Long.toString(call.callerWaitsMs()));
                }
            }).exchangeToMono(response -> {
                if (!response.statusCode().is2xxSuccessful()) {
                    int status = response.statusCode().value();
                    return response.releaseBody().then(Mono.error(new DownstreamException(
                            DownstreamException.Kind.BAD_STATUS,
                            "The delay-service answered " + status + " for " + uri + ".", status, null)));
                }
                MediaType type = response.headers().contentType().orElse(MediaType.APPLICATION_JSON);
                return response.bodyToMono(byte[].class).defaultIfEmpty(new byte[0])
                    .map(body -> ResponseEntity.ok().contentType(type).body(body));
            })
                // The whole answer, headers and body, within the limit in force (as the thread-service's read
                // timeout): delay-service.client-timeout when set and shorter, else delay-service.timeout; not
                // stretched by ms.
                .timeout(timeout)
                .onErrorMap(e -> !(e instanceof DownstreamException), e -> classify(e, uri))
                .doFinally(signal -> stats.record(System.nanoTime() - start));
        });
    }

    private DownstreamException classify(Throwable e, URI uri) {
        if (e instanceof TimeoutException) {
            return new DownstreamException(properties.timeoutKind(),
                    "No answer from " + uri + " within " + properties.callTimeoutText() + ".", null, e);
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            // Netty's ConnectTimeoutException is a ConnectException: a connect that hangs is a timeout, as in the
            // thread-service, not a refusal.
            if (t instanceof io.netty.channel.ConnectTimeoutException) {
                return new DownstreamException(properties.timeoutKind(), "No answer from " + uri
                        + " within the connect timeout (" + properties.callConnectTimeout().toMillis() + " ms).", null,
                        e);
            }
            if (t instanceof ConnectException) {
                return new DownstreamException(DownstreamException.Kind.REFUSED, "Cannot connect to " + uri + ": "
                        + (t.getMessage() != null ? t.getMessage() : "connection refused") + ".", null, e);
            }
        }
        return new DownstreamException(DownstreamException.Kind.IO_ERROR,
                "I/O error calling " + uri + ": " + e + ".", null, e);
    }
}
