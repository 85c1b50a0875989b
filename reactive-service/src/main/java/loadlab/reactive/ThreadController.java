package loadlab.reactive;

import java.util.Map;

import loadlab.reactive.metrics.NettyServerProbe;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** Shows which thread really serves a request: one of Netty's event loops (reactor-http-epoll-N), never virtual. */
@RestController
class ThreadController {

    @GetMapping("/thread")
    Map<String, Object> thread() {
        Thread current = Thread.currentThread();
        return Map.of("thread", current.toString(), "virtual", current.isVirtual(), "mode", NettyServerProbe.MODE);
    }
}
