package loadlab.thread.forward;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import loadlab.thread.cpu.CpuWork;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The waiting shapes: a request thread blocked on I/O for {@code ms} (/forward), the same while holding a monitor
 * (/pinned), each after {@code cpuMs} of computation. Validation happens first, so a bad parameter never costs a
 * downstream call.
 */
@RestController
class ForwardController {

    // The monitors held right now. Publishing each lock here makes it escape, so the JIT cannot elide the
    // synchronized block (an unshared, non-escaping lock may be removed by escape analysis).
    private static final Set<Object> HELD = ConcurrentHashMap.newKeySet();

    private final DelayParameter parameter;

    private final DownstreamCall client;

    private final CpuWork work;

    ForwardController(DelayParameter parameter, DownstreamCall client, CpuWork work) {
        this.parameter = parameter;
        this.client = client;
        this.work = work;
    }

    @GetMapping("/forward")
    ResponseEntity<byte[]> forward(@RequestParam(name = DelayParameter.NAME, required = false) String ms,
            @RequestParam(name = "cpuMs", required = false) String cpuMs) {
        long delay = parameter.parse(ms);
        work.run(work.parseOptional(cpuMs));
        return answer(client.delay(DelayCall.of(delay)));
    }

    /**
     * The blocking call made inside {@code synchronized} on a lock of this request's own: no two requests contend,
     * so the only effect is the one under test. On JDK 21 a virtual thread blocking there pins its carrier (at most
     * {@code carriers} requests wait at once); JDK 24+ (JEP 491) unmounts it as usual.
     */
    @GetMapping("/pinned")
    ResponseEntity<byte[]> pinned(@RequestParam(name = DelayParameter.NAME, required = false) String ms,
            @RequestParam(name = "cpuMs", required = false) String cpuMs) {
        long delay = parameter.parse(ms);
        work.run(work.parseOptional(cpuMs));
        Object lock = new Object();
        HELD.add(lock);
        try {
            synchronized (lock) {
                return answer(client.delay(DelayCall.of(delay)));
            }
        } finally {
            HELD.remove(lock);
        }
    }

    private static ResponseEntity<byte[]> answer(DownstreamCall.Reply reply) {
        MediaType type = reply.contentType() != null ? reply.contentType() : MediaType.APPLICATION_JSON;
        return ResponseEntity.ok().contentType(type).body(reply.body());
    }
}
