package loadlab.delay.downstream;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import loadlab.delay.downstream.ServedDelays.Outcome;
import reactor.netty.Connection;

import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.ProblemDetail;
import org.springframework.http.server.reactive.AbstractServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * Every path and method but {@code GET /delay} (whose {@code ms} keeps its meaning): a downstream as a real service
 * has one, at its own paths. The body, if any, is read and dropped; the answer comes after a delay drawn from the
 * configured distribution (a timer, no thread waits), as {@code {}}. The delay is the stand-in's own policy, so its
 * callers carry none: an app with a base URL calls {@code {base}/posts/1} unchanged. A share of the answers, drawn
 * per request, fails after its delay as a real downstream does: a 503 problem, or the connection reset. During a
 * scheduled brownout ({@link Brownout}) the delay is the brownout's instead of a draw. A call whose caller has gone
 * is counted ({@link ServedDelays}): answered after the caller stopped waiting, or cancelled by its closed connection.
 */
@RestController
class DownstreamController {

    static final String EMPTY_JSON = "{}";

    private final DelayDistribution distribution;
    private final ServedDelays served;
    private final double errorsPct;
    private final double resetsPct;
    private final Stubs stubs;
    private final Brownout brownout;

    DownstreamController(DownstreamProperties properties, ServedDelays served, Brownout brownout) {
        this.distribution = DelayDistribution.of(properties);
        this.served = served;
        this.errorsPct = properties.errorsPct();
        this.resetsPct = properties.resetsPct();
        this.stubs = Stubs.parse(properties.stubs());
        this.brownout = brownout;
    }

    @RequestMapping("/**")
    Mono<ResponseEntity<Object>> answer(ServerHttpRequest request) {
        long start = System.nanoTime();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        // A brownout's delay is the time's, read at the request's arrival (Brownout).
        double brownoutMs = brownout.delayMsAt(System.currentTimeMillis()).orElse(-1);
        boolean slowed = brownoutMs >= 0;
        long delayNanos = Math.round((slowed ? brownoutMs : distribution.drawMs(random)) * 1e6);
        Outcome outcome = outcome(random.nextDouble() * 100);
        Stubs.Stub stub = stubs.find(request.getMethod(), request.getPath().pathWithinApplication().value());
        long callerWaitsMs = ServedDelays.callerWaitsMs(request.getHeaders());
        Mono<ResponseEntity<Object>> answer = request.getBody().doOnNext(DataBufferUtils::release).then()
                .then(Mono.delay(Duration.ofNanos(Math.max(0, delayNanos))))
                .flatMap(tick -> {
                    served.record(start, outcome, callerWaitsMs);
                    if (slowed) {
                        served.recordBrownout(start);
                    }
                    return switch (outcome) {
                        case SERVED -> Mono.just(stub == null
                                ? ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body((Object) EMPTY_JSON)
                                : ResponseEntity.status(stub.status())
                                        .contentType(MediaType.parseMediaType(stub.contentType()))
                                        .body((Object) stub.body()));
                        case ERROR -> Mono.just(injectedError());
                        case RESET -> reset(request);
                    };
                });
        return ServedDelays.onCallerGone(answer, () -> served.recordCancelled(start));
    }

    private Outcome outcome(double percent) {
        if (percent < errorsPct) {
            return Outcome.ERROR;
        }
        return percent < errorsPct + resetsPct ? Outcome.RESET : Outcome.SERVED;
    }

    private static ResponseEntity<Object> injectedError() {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
                "An injected downstream failure (downstream.errors-pct).");
        problem.setTitle("Injected downstream error");
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }

    /** The connection closed with a TCP reset (SO_LINGER 0), no answer: what a crashed downstream does. */
    private static Mono<ResponseEntity<Object>> reset(ServerHttpRequest request) {
        if (request instanceof AbstractServerHttpRequest r && r.getNativeRequest() instanceof Connection c) {
            Channel channel = c.channel();
            channel.config().setOption(ChannelOption.SO_LINGER, 0);
            channel.close();
        }
        return Mono.empty();
    }
}
