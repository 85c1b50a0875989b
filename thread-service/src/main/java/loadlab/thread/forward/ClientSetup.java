package loadlab.thread.forward;

import org.springframework.http.client.ClientHttpRequestFactory;

/**
 * The downstream client as built: its request factory, its effective pool (connections per route and in all; -1 where
 * it has no cap) and what closes it at shutdown.
 */
record ClientSetup(DownstreamClient client, ClientHttpRequestFactory requestFactory, int perRoute, int total,
        Resources resources) implements AutoCloseable {

    /** What the client holds open (threads, connections), released at shutdown. */
    @FunctionalInterface
    interface Resources {
        void close() throws Exception;
    }

    @Override
    public void close() throws Exception {
        resources.close();
    }

    /** The words naming the pool that had no connection, for the problem's detail. */
    String poolText() {
        return "the " + client.id() + " client's pool (" + perRoute + " connections per route"
                + (total > 0 ? ", " + total + " in all" : "") + ")";
    }
}
