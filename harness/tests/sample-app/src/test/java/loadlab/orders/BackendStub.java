package loadlab.orders;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;

import com.sun.net.httpserver.HttpServer;

/** A stand-in pricing backend on an ephemeral port, answering like the lab's delay-service. */
final class BackendStub implements AutoCloseable {

    static final AtomicReference<String> LAST_PATH = new AtomicReference<>();

    private final HttpServer server;

    private BackendStub(HttpServer server) {
        this.server = server;
    }

    static BackendStub start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/delay", exchange -> {
                byte[] body = "{\"delayMs\":5}".getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                try (OutputStream out = exchange.getResponseBody()) {
                    exchange.sendResponseHeaders(200, body.length);
                    out.write(body);
                }
            });
            // Any other path answers as a REST downstream does at its own paths; the last one asked is kept.
            server.createContext("/", exchange -> {
                LAST_PATH.set(exchange.getRequestURI().getPath());
                byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                try (OutputStream out = exchange.getResponseBody()) {
                    exchange.sendResponseHeaders(200, body.length);
                    out.write(body);
                }
            });
            server.setExecutor(Executors.newCachedThreadPool());
            server.start();
            return new BackendStub(server);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/delay?ms=5";
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
