package loadlab.reactive.cpu;

import java.util.Map;

import loadlab.thread.cpu.CpuWork;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/** The CPU-bound shape: {@code cpuMs} of computation and no waiting (thread-service's /cpu). */
@RestController
class CpuController {

    private final CpuWork work;

    private final ReactiveCpu cpu;

    CpuController(CpuWork work, ReactiveCpu cpu) {
        this.work = work;
        this.cpu = cpu;
    }

    @GetMapping("/cpu")
    Mono<Map<String, Object>> cpu(@RequestParam(name = "cpuMs", required = false) String cpuMs) {
        long ms = work.parseRequired(cpuMs);
        return cpu.run(ms).thenReturn(Map.of("cpuMs", ms));
    }
}
