package loadlab.thread.metrics;

import java.util.concurrent.Executor;

import loadlab.thread.mode.ThreadMode;

import org.apache.catalina.connector.Connector;
import org.apache.coyote.AbstractProtocol;
import org.apache.coyote.ProtocolHandler;
import org.apache.tomcat.util.threads.ThreadPoolExecutor;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Reads the main Tomcat connector's executor directly: no JMX, nothing to enable, and it keeps answering when
 * every request thread is busy (the endpoint is served by the management server's own connector).
 */
@Component
class RequestPoolProbe implements ServerProbe {

    private final String mode;

    private volatile ProtocolHandler protocol;

    RequestPoolProbe(Environment environment) {
        this.mode = ThreadMode.of(environment).id();
    }

    @Override
    public String threadMode() {
        return mode;
    }

    @EventListener
    void onWebServerInitialized(WebServerInitializedEvent event) {
        // The management server's event reaches this context too; only the request server is of interest.
        if (WebServerApplicationContext.getServerNamespace(event.getApplicationContext()) != null) {
            return;
        }
        if (event.getWebServer() instanceof TomcatWebServer tomcat) {
            Connector[] connectors = tomcat.getTomcat().getService().findConnectors();
            if (connectors.length > 0) {
                protocol = connectors[0].getProtocolHandler();
            }
        }
    }

    /** The platform pool, or null in virtual mode (Tomcat then runs a thread per task, nothing to count). */
    private ThreadPoolExecutor pool() {
        ProtocolHandler current = protocol;
        Executor executor = current == null ? null : current.getExecutor();
        return executor instanceof ThreadPoolExecutor pool ? pool : null;
    }

    @Override
    public int busyThreads() {
        ThreadPoolExecutor pool = pool();
        return pool == null ? -1 : pool.getActiveCount();
    }

    @Override
    public int maxThreads() {
        ThreadPoolExecutor pool = pool();
        return pool == null ? -1 : pool.getMaximumPoolSize();
    }

    /** Requests accepted and waiting for a platform thread: where platform-mode latency comes from. */
    @Override
    public int queuedRequests() {
        ThreadPoolExecutor pool = pool();
        return pool == null ? -1 : pool.getQueue().size();
    }

    /** Tomcat's max-connections, in either mode: past it, accepted connections wait in the listen backlog. */
    @Override
    public int maxConnections() {
        return protocol instanceof AbstractProtocol<?> abstractProtocol ? abstractProtocol.getMaxConnections() : -1;
    }

    @Override
    public long connections() {
        return protocol instanceof AbstractProtocol<?> abstractProtocol ? abstractProtocol.getConnectionCount() : -1;
    }
}
