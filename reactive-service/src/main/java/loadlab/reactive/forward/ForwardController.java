package loadlab.reactive.forward;

import loadlab.reactive.cpu.ReactiveCpu;
import loadlab.thread.cpu.CpuWork;
import loadlab.thread.forward.DelayCall;
import loadlab.thread.forward.DelayParameter;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * The waiting shape (thread-service's /forward): {@code cpuMs} of computation, then the delay-service's answer after
 * {@code ms}, with no thread held while it waits. Validation happens first, so a bad parameter never costs a
 * downstream call. There is no /pinned: holding a monitor across a wait has no non-blocking form.
 */
@RestController
class ForwardController {

    private final DelayParameter parameter;

    private final CpuWork work;

    private final ReactiveCpu cpu;

    private final DelayServiceCall client;

    ForwardController(DelayParameter parameter, CpuWork work, ReactiveCpu cpu, DelayServiceCall client) {
        this.parameter = parameter;
        this.work = work;
        this.cpu = cpu;
        this.client = client;
    }

    @GetMapping("/forward")
    Mono<ResponseEntity<byte[]>> forward(@RequestParam(name = "ms", required = false) String ms,
            @RequestParam(name = "cpuMs", required = false) String cpuMs) {
        long delay = parameter.parse(ms);
        long compute = work.parseOptional(cpuMs);
        return cpu.run(compute).then(client.delay(() -> DelayCall.of(delay)));
    }
}
