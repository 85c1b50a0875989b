package loadlab.thread.fanout;

import loadlab.thread.cpu.CpuWork;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /fanout}: one request, {@code n} calls to the delay-service in parallel ({@code part=0..n-1}), answered
 * when all came back or at its deadline, in the mode's own shape ({@link FanOutShape}). Validation happens first, so
 * a bad parameter never costs a call; then {@code cpuMs} of computation, as /forward.
 */
@RestController
class FanOutController {

    private final FanOutParameters parameters;

    private final CpuWork work;

    private final FanOutShape shape;

    FanOutController(FanOutParameters parameters, CpuWork work, FanOutShape shape) {
        this.parameters = parameters;
        this.work = work;
        this.shape = shape;
    }

    @GetMapping("/fanout")
    FanOutAnswer fanOut(@RequestParam(name = "ms", required = false) String ms,
            @RequestParam(name = FanOutParameters.CALLS, required = false) String calls,
            @RequestParam(name = FanOutParameters.TIMEOUT, required = false) String timeoutMs,
            @RequestParam(name = FanOutParameters.ON_TIMEOUT, required = false) String onTimeout,
            @RequestParam(name = "cpuMs", required = false) String cpuMs) {
        FanOutRequest request = parameters.parse(ms, calls, timeoutMs, onTimeout);
        work.run(work.parseOptional(cpuMs));
        return shape.run(request);
    }
}
