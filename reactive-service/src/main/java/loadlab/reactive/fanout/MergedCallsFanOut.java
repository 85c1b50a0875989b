package loadlab.reactive.fanout;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;

import loadlab.reactive.forward.DelayServiceCall;
import loadlab.thread.fanout.FanOutAnswer;
import loadlab.thread.fanout.FanOutDeadline;
import loadlab.thread.fanout.FanOutRequest;
import loadlab.thread.metrics.FanOutSetup;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The reactive fan-out, as a team writes it on WebFlux: the n WebClient calls merged ({@code Flux.merge}, all
 * subscribed at once), the answer when the last came back, the deadline a {@code timeout} on the whole. No thread
 * waits for any of them. When the deadline passes or one call fails, the merge is cancelled: Reactor Netty closes the
 * connections of the calls still out, so none outlives its request (as a structured scope's).
 */
@Component
class MergedCallsFanOut {

    static final String ID = "mono-zip";

    private final DelayServiceCall call;

    MergedCallsFanOut(DelayServiceCall call, FanOutSetup setup) {
        this.call = call;
        setup.runsAs(ID, null);
    }

    Mono<FanOutAnswer> run(FanOutRequest request) {
        return Mono.defer(() -> {
            FanOutDeadline deadline = FanOutDeadline.startingNow(request);
            Set<Integer> answered = ConcurrentHashMap.newKeySet();
            List<Mono<Integer>> calls = IntStream.range(0, request.calls())
                    .mapToObj(part -> call.delay(() -> deadline.call(part)).thenReturn(part))
                    .toList();
            Mono<FanOutAnswer> all = Flux.merge(calls).doOnNext(answered::add)
                    .then(Mono.fromSupplier(() -> FanOutAnswer.complete(request)));
            if (!request.hasDeadline()) {
                return all;
            }
            // A call's own timeout is already its DownstreamException: a TimeoutException here is the deadline's.
            return all.timeout(Duration.ofMillis(request.timeoutMs()))
                    .onErrorResume(TimeoutException.class, e -> Mono.fromSupplier(
                            () -> FanOutAnswer.atDeadline(request, missing(request, answered))));
        });
    }

    private static List<Integer> missing(FanOutRequest request, Set<Integer> answered) {
        return IntStream.range(0, request.calls()).filter(part -> !answered.contains(part)).boxed().toList();
    }
}
