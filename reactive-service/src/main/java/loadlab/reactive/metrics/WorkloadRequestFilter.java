package loadlab.reactive.metrics;

import java.util.Set;

import loadlab.thread.api.WorkloadPaths;
import loadlab.thread.metrics.WorkloadCounter;
import loadlab.thread.threadlocal.PerThreadObject;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * First for every workload request (/forward, /db, /cpu): counts it started and in flight until its answer is
 * written, and uses the {@link PerThreadObject} of the event loop it arrived on (THREADLOCAL_KB: built once per
 * event-loop thread, as once per pooled thread in platform mode). In flight here means accepted by WebFlux: Netty
 * queues nothing before it, so unlike Tomcat's platform pool this counts every request the service holds.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class WorkloadRequestFilter extends WorkloadCounter implements WebFilter {

    private static final Set<String> WORKLOAD = Set.of(WorkloadPaths.ALL);

    private final PerThreadObject perThread;

    WorkloadRequestFilter(PerThreadObject perThread) {
        this.perThread = perThread;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!WORKLOAD.contains(exchange.getRequest().getPath().pathWithinApplication().value())) {
            return chain.filter(exchange);
        }
        started();
        perThread.use();
        return chain.filter(exchange).doFinally(signal -> finished());
    }
}
