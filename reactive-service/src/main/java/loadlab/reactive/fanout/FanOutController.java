package loadlab.reactive.fanout;

import loadlab.reactive.cpu.ReactiveCpu;
import loadlab.thread.cpu.CpuWork;
import loadlab.thread.fanout.FanOutAnswer;
import loadlab.thread.fanout.FanOutParameters;
import loadlab.thread.fanout.FanOutRequest;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * The thread-service's {@code GET /fanout} on WebFlux: the same query, validated first (a bad parameter never costs
 * a call), then {@code cpuMs} of computation, then the calls ({@link MergedCallsFanOut}).
 */
@RestController
class FanOutController {

    private final FanOutParameters parameters;

    private final CpuWork work;

    private final ReactiveCpu cpu;

    private final MergedCallsFanOut fanOut;

    FanOutController(FanOutParameters parameters, CpuWork work, ReactiveCpu cpu, MergedCallsFanOut fanOut) {
        this.parameters = parameters;
        this.work = work;
        this.cpu = cpu;
        this.fanOut = fanOut;
    }

    @GetMapping("/fanout")
    Mono<FanOutAnswer> fanOut(@RequestParam(name = "ms", required = false) String ms,
            @RequestParam(name = FanOutParameters.CALLS, required = false) String calls,
            @RequestParam(name = FanOutParameters.TIMEOUT, required = false) String timeoutMs,
            @RequestParam(name = FanOutParameters.ON_TIMEOUT, required = false) String onTimeout,
            @RequestParam(name = "cpuMs", required = false) String cpuMs) {
        FanOutRequest request = parameters.parse(ms, calls, timeoutMs, onTimeout);
        long compute = work.parseOptional(cpuMs);
        return cpu.run(compute).then(fanOut.run(request));
    }
}
