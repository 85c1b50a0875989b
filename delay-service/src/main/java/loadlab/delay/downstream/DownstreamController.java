package loadlab.delay.downstream;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * Every path and method but {@code GET /delay} (whose {@code ms} keeps its meaning): a downstream as a real service
 * has one, at its own paths. The body, if any, is read and dropped; the answer comes after a delay drawn from the
 * configured distribution (a timer, no thread waits), as {@code {}}. The delay is the stand-in's own policy, so its
 * callers carry none: an app with a base URL calls {@code {base}/posts/1} unchanged.
 */
@RestController
class DownstreamController {

    static final String EMPTY_JSON = "{}";

    private final DelayDistribution distribution;
    private final ServedDelays served;

    DownstreamController(DownstreamProperties properties, ServedDelays served) {
        this.distribution = DelayDistribution.of(properties);
        this.served = served;
    }

    @RequestMapping("/**")
    Mono<ResponseEntity<String>> answer(ServerHttpRequest request) {
        long start = System.nanoTime();
        long delayNanos = Math.round(distribution.drawMs(ThreadLocalRandom.current()) * 1e6);
        return request.getBody().doOnNext(DataBufferUtils::release).then()
                .then(Mono.delay(Duration.ofNanos(Math.max(0, delayNanos))))
                .map(tick -> {
                    served.record(start);
                    return ResponseEntity.status(HttpStatus.OK).contentType(MediaType.APPLICATION_JSON)
                            .body(EMPTY_JSON);
                });
    }
}
