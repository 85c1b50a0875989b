package loadlab.thread.forward;

import java.net.SocketTimeoutException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.Set;

import org.apache.hc.core5.http.ConnectionRequestTimeoutException;

/**
 * What a failed call's exceptions mean, whichever client made it (JDK HttpClient, Apache HttpClient 5, Reactor Netty
 * through Spring's request factories): each is tested on one link of the cause chain.
 */
final class ClientFailures {

    // Reactor Netty shades reactor-pool (reactor.netty.internal.shaded.reactor.pool): named by their simple names so
    // a change of the shaded package does not turn a full pool into an I/O error.
    private static final Set<String> REACTOR_POOL_FULL =
            Set.of("PoolAcquirePendingLimitException", "PoolAcquireTimeoutException");

    private ClientFailures() {
    }

    /** No connection of the client's pool within the wait: Apache's lease timeout, Reactor's pending acquire. */
    static boolean poolFull(Throwable t) {
        return t instanceof ConnectionRequestTimeoutException
                || REACTOR_POOL_FULL.contains(t.getClass().getSimpleName());
    }

    /** The connect did not finish within the connect timeout. */
    static boolean connectTimeout(Throwable t) {
        return t instanceof HttpConnectTimeoutException
                || t instanceof org.apache.hc.client5.http.ConnectTimeoutException
                || t instanceof io.netty.channel.ConnectTimeoutException;
    }

    /**
     * A limit of the call passed: the connect's, or the answer's (JDK's request timeout, Apache's socket timeout,
     * Reactor's response timeout). Tested before {@link java.net.ConnectException}: Netty's connect timeout is one.
     */
    static boolean timeout(Throwable t) {
        return connectTimeout(t) || t instanceof HttpTimeoutException || t instanceof SocketTimeoutException
                || t instanceof io.netty.handler.timeout.TimeoutException;
    }
}
