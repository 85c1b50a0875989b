package loadlab.delay.api;

import java.time.Duration;

import loadlab.delay.downstream.ServedDelays;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * Stands in for a slow remote dependency. The wait is a timer, not a sleeping thread, so thousands of
 * requests can be pending on a couple of event-loop threads; nothing is logged per request. A call whose caller has
 * gone is counted as on the drawn paths ({@link ServedDelays}), when this path is the one the lab's services call.
 */
@RestController
class DelayController {

    private final DelayParameter parameter;
    private final ServedDelays served;

    DelayController(DelayParameter parameter, ServedDelays served) {
        this.parameter = parameter;
        this.served = served;
    }

    @GetMapping(path = "/delay", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<DelayResponse> delay(@RequestParam(name = DelayParameter.NAME, required = false) String ms,
            @RequestHeader HttpHeaders headers) {
        long start = System.nanoTime();
        long delayMs = parameter.parse(ms);
        long callerWaitsMs = ServedDelays.callerWaitsMs(headers);
        // With a constant DELAY_MS the lab's own services call here, and the served delay is checked.
        Mono<DelayResponse> answer = Mono.delay(Duration.ofMillis(delayMs)).map(tick -> {
            served.recordDelayPath(start, callerWaitsMs);
            return new DelayResponse(delayMs);
        });
        return ServedDelays.onCallerGone(answer, () -> served.recordDelayPathCancelled(start));
    }
}
