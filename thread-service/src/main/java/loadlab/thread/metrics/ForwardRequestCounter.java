package loadlab.thread.metrics;

import java.io.IOException;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

/**
 * Counts workload requests (/forward, /pinned, /db, /cpu) a request thread has picked up. Requests still queued
 * inside Tomcat are not in
 * {@code inflight}: in platform mode it tops out at the pool size, which is exactly the saturation signal.
 */
class ForwardRequestCounter extends WorkloadCounter implements Filter {

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        started();
        try {
            chain.doFilter(request, response);
        } finally {
            finished();
        }
    }
}
