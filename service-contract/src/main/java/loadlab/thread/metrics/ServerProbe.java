package loadlab.thread.metrics;

/**
 * What the request server tells the harness about itself: the mode it serves in and its request pool and
 * connections. Tomcat's (RequestPoolProbe) in the thread-service; a server without a request pool or a connection
 * cap (Netty in the reactive service) answers -1 for those, "not available here".
 */
public interface ServerProbe {

    /** {@code platform}, {@code virtual} or {@code reactive}: how requests are served. */
    String threadMode();

    int maxThreads();

    int busyThreads();

    int queuedRequests();

    int maxConnections();

    long connections();
}
