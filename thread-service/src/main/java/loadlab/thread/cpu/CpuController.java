package loadlab.thread.cpu;

import java.util.Map;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The CPU-bound shape: {@code cpuMs} of computation and no waiting, so threads of either kind cannot help. */
@RestController
class CpuController {

    private final CpuWork work;

    CpuController(CpuWork work) {
        this.work = work;
    }

    @GetMapping("/cpu")
    Map<String, Object> cpu(@RequestParam(name = CpuWork.PARAMETER, required = false) String cpuMs) {
        long ms = work.parseRequired(cpuMs);
        work.run(ms);
        return Map.of("cpuMs", ms);
    }
}
