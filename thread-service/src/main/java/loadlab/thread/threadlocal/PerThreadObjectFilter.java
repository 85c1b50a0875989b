package loadlab.thread.threadlocal;

import java.io.IOException;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

/** Every workload request, whatever its scenario, uses the request thread's {@link PerThreadObject} first. */
class PerThreadObjectFilter implements Filter {

    private final PerThreadObject object;

    PerThreadObjectFilter(PerThreadObject object) {
        this.object = object;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        object.use();
        chain.doFilter(request, response);
    }
}
