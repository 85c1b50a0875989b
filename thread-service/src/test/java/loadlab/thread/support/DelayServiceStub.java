package loadlab.thread.support;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A stand-in delay-service on an ephemeral port that counts calls, and how many it held at once, and can be told to
 * fail, or to hold every answer until the test releases it: the order of events a test asserts ("the caller had no
 * answer while the delay-service held the call") then never depends on how long anything took.
 */
public final class DelayServiceStub implements DownstreamStub {

    private final HttpServer server;
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private final AtomicInteger held = new AtomicInteger();
    // One permit per call that started waiting at the gate: awaitHeld() blocks on them instead of polling.
    private final Semaphore arrivals = new Semaphore(0);
    private volatile int status = 200;
    // Null: answer after sleeping ms. Set: wait for release() instead, then answer at once.
    private volatile CountDownLatch gate;

    private DelayServiceStub(HttpServer server) {
        this.server = server;
    }

    static DelayServiceStub start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            DelayServiceStub stub = new DelayServiceStub(server);
            server.createContext("/delay", stub::handle);
            // A thread per exchange, so one sleeping "slow" answer never delays the next test's call. Platform
            // threads: on JDK 21 the service's pinned virtual threads can hold every carrier, and a stub needing one
            // to answer them would wait for them.
            server.setExecutor(Executors.newCachedThreadPool());
            server.start();
            return stub;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public int calls() {
        return calls.get();
    }

    /** The most calls this stub was answering at the same time since the last {@link #reset()}. */
    public int maxInFlight() {
        return maxInFlight.get();
    }

    public void respondWith(int status) {
        this.status = status;
    }

    /** From now on every call waits, unanswered, until {@link #release()}. */
    public void hold() {
        gate = new CountDownLatch(1);
    }

    /** Answers every held call (and stops holding new ones). */
    public void release() {
        CountDownLatch open = gate;
        gate = null;
        if (open != null) {
            open.countDown();
        }
    }

    /**
     * Returns once {@code count} more calls are waiting at the gate. The bound only turns a call that never comes
     * into a failure instead of a hung build; it is not a measurement.
     */
    public void awaitHeld(int count) {
        try {
            if (!arrivals.tryAcquire(count, 30, TimeUnit.SECONDS)) {
                throw new AssertionError("the delay-service stub never received " + count + " call(s) to hold");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Calls waiting at the gate right now, unanswered. */
    public int held() {
        return held.get();
    }

    @Override
    public void reset() {
        release();
        arrivals.drainPermits();
        calls.set(0);
        maxInFlight.set(0);
        status = 200;
    }

    private void handle(HttpExchange exchange) throws IOException {
        calls.incrementAndGet();
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        try {
            answer(exchange);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    private void answer(HttpExchange exchange) throws IOException {
        String query = exchange.getRequestURI().getQuery();
        long ms = Long.parseLong(query.substring(query.indexOf("ms=") + 3));
        int answer = status;
        byte[] body;
        if (answer == 200) {
            waitBeforeAnswering(ms);
            body = ("{\"delayMs\":" + ms + "}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
        } else {
            body = "stub failure".getBytes(StandardCharsets.UTF_8);
        }
        try (OutputStream out = exchange.getResponseBody()) {
            exchange.sendResponseHeaders(answer, body.length);
            out.write(body);
        } catch (IOException ignored) {
            // The caller gave up first (timeout test); nothing to answer.
        }
    }

    private void waitBeforeAnswering(long ms) {
        CountDownLatch open = gate;
        try {
            if (open == null) {
                Thread.sleep(ms);
                return;
            }
            held.incrementAndGet();
            arrivals.release();
            try {
                open.await();
            } finally {
                held.decrementAndGet();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        release();
        server.stop(0);
    }
}
