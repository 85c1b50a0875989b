package loadlab.thread.fanout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import loadlab.thread.support.DownstreamStub;

/**
 * A stand-in delay-service for /fanout on plain sockets, so it sees what the HTTP server of the real one hides: each
 * call's {@code part} and {@code Loadlab-Caller-Waits-Ms} header, and for a call it holds, whether its caller closed
 * the connection before the answer (a call cancelled with its request) or left it open (a call that outlives it).
 * Parts told to hold wait, unanswered, until {@link #release()}; a part told to fail answers 503; the others answer at
 * once. Every answer closes its connection, so no client reuses one between calls.
 */
public final class FanOutStub implements DownstreamStub {

    /** What became of one call: answered, held (its connection still open), or closed by the caller first. */
    public enum Outcome {
        HELD,
        ANSWERED,
        CLOSED_BEFORE_ANSWER
    }

    /** One call as received: its part, its header (null when absent). */
    public record Call(int part, String callerWaitsMs) {
    }

    private static final int POLL_MS = 20;

    private final ServerSocket server;
    private final ExecutorService threads = Executors.newCachedThreadPool(Thread.ofPlatform().daemon().factory());
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final Map<Integer, Outcome> outcomes = new ConcurrentHashMap<>();
    private final Semaphore arrivals = new Semaphore(0);
    private final Semaphore closes = new Semaphore(0);
    // One gate per part told to hold: open, its call is answered.
    private final Map<Integer, CountDownLatch> gates = new ConcurrentHashMap<>();
    private volatile Set<Integer> failing = Set.of();

    private FanOutStub(ServerSocket server) {
        this.server = server;
    }

    public static FanOutStub start() {
        try {
            FanOutStub stub = new FanOutStub(new ServerSocket(0, 200, InetAddress.getLoopbackAddress()));
            stub.threads.execute(stub::accept);
            return stub;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String url() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** From now on these parts wait, unanswered, until {@link #release()}. */
    public void hold(Integer... parts) {
        for (int part : parts) {
            gates.put(part, new CountDownLatch(1));
        }
    }

    /** From now on these parts answer 503. */
    public void fail(Integer... parts) {
        failing = Set.of(parts);
    }

    /** Answers every held call still open. */
    public void release() {
        gates.values().forEach(CountDownLatch::countDown);
    }

    /** Answers this held part's call (503 if it was told to fail), the others staying held. */
    public void release(int part) {
        gates.get(part).countDown();
    }

    /** Releases what is held and forgets every call. */
    @Override
    public void reset() {
        release();
        gates.clear();
        failing = Set.of();
        calls.clear();
        outcomes.clear();
        arrivals.drainPermits();
        closes.drainPermits();
    }

    public List<Call> calls() {
        return List.copyOf(calls);
    }

    public Outcome outcome(int part) {
        return outcomes.get(part);
    }

    /**
     * Returns once {@code count} more calls wait at the gate; the bound only turns a call that never comes into a
     * failure instead of a hung build.
     */
    public void awaitHeld(int count) {
        await(arrivals, count, "call(s) to hold");
    }

    /** Returns once {@code count} more held calls had their connection closed by the caller; bounded likewise. */
    public void awaitClosed(int count) {
        await(closes, count, "held call(s) closed by their caller");
    }

    private static void await(Semaphore permits, int count, String what) {
        try {
            if (!permits.tryAcquire(count, 30, TimeUnit.SECONDS)) {
                throw new AssertionError("the fan-out stub never saw " + count + " " + what);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                threads.execute(() -> serve(socket));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            InputStream in = socket.getInputStream();
            String requestLine = line(in);
            String callerWaits = null;
            for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
                int colon = header.indexOf(':');
                if (colon > 0 && header.substring(0, colon).trim().toLowerCase(Locale.ROOT)
                        .equals("loadlab-caller-waits-ms")) {
                    callerWaits = header.substring(colon + 1).trim();
                }
            }
            if (requestLine == null) {
                return;
            }
            int part = part(requestLine);
            calls.add(new Call(part, callerWaits));
            CountDownLatch open = gates.get(part);
            if (open != null) {
                outcomes.put(part, Outcome.HELD);
                arrivals.release();
                if (!waitOpen(socket, in, open)) {
                    outcomes.put(part, Outcome.CLOSED_BEFORE_ANSWER);
                    closes.release();
                    return;
                }
            }
            answer(socket.getOutputStream(), failing.contains(part) ? 503 : 200);
            outcomes.put(part, Outcome.ANSWERED);
        } catch (IOException e) {
            // A connection the caller dropped mid-answer: nothing to record beyond what was.
        }
    }

    /** Waits for the gate while watching the connection: false when the caller closed it first. */
    private static boolean waitOpen(Socket socket, InputStream in, CountDownLatch open) throws IOException {
        socket.setSoTimeout(POLL_MS);
        while (open.getCount() > 0) {
            try {
                if (in.read() < 0) {
                    return false;
                }
            } catch (SocketTimeoutException e) {
                // still open: look at the gate again
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }

    private static void answer(OutputStream out, int status) throws IOException {
        byte[] body = (status == 200 ? "{\"delayMs\":0}" : "stub failure").getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 " + status + (status == 200 ? " OK" : " Service Unavailable") + "\r\n"
                + "Content-Type: " + (status == 200 ? "application/json" : "text/plain") + "\r\n"
                + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
    }

    private static int part(String requestLine) {
        String query = URI.create(requestLine.split(" ")[1]).getQuery();
        for (String pair : query == null ? new String[0] : query.split("&")) {
            if (pair.startsWith("part=")) {
                return Integer.parseInt(pair.substring(5));
            }
        }
        return -1;
    }

    /** One CRLF-terminated line, byte by byte (no buffer may swallow what comes after the headers); null at EOF. */
    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int b = in.read(); b >= 0; b = in.read()) {
            if (b == '\n') {
                String text = bytes.toString(StandardCharsets.ISO_8859_1);
                return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            }
            bytes.write(b);
        }
        return null;
    }

    @Override
    public void close() {
        release();
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        threads.shutdownNow();
    }
}
