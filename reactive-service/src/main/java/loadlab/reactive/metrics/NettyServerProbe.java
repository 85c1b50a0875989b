package loadlab.reactive.metrics;

import loadlab.thread.metrics.ServerProbe;
import org.springframework.stereotype.Component;

/**
 * The request server as /actuator/loadlab reports it: mode {@code reactive}. Netty has no request thread pool (a few
 * event loops serve every connection), no request queue of its own and no connection cap, so those fields are -1,
 * "not available here", as in the thread-service's virtual mode.
 */
@Component
public class NettyServerProbe implements ServerProbe {

    /** What {@code thread_mode} and /thread say: the mode's name in the harness's MODES. */
    public static final String MODE = "reactive";

    @Override
    public String threadMode() {
        return MODE;
    }

    @Override
    public int maxThreads() {
        return -1;
    }

    @Override
    public int busyThreads() {
        return -1;
    }

    @Override
    public int queuedRequests() {
        return -1;
    }

    @Override
    public int maxConnections() {
        return -1;
    }

    @Override
    public long connections() {
        return -1;
    }
}
