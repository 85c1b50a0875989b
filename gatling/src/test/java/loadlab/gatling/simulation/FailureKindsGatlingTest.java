package loadlab.gatling.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

import loadlab.gatling.recorder.ErrorKind;
import loadlab.gatling.recorder.RawFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The real simulation in a real Gatling (the harness's command line: {@code java @jvm.options ...
 * io.gatling.app.Gatling}) against a loopback server that fails on purpose: every kind in errors.csv must be the one
 * the failure was. This is what catches a Gatling upgrade that moves the failure cause {@link FailureCauses} reads.
 * Two short runs (about 10 s each); no ports of the lab (8080/8081/8090) are used.
 */
class FailureKindsGatlingTest {

    private static final int REQUEST_TIMEOUT_MS = 1500;
    private static final int CONNECT_TIMEOUT_MS = 1000;

    @TempDir
    Path tmp;

    @Test
    void eachFailureIsFiledUnderItsKind() throws Exception {
        // One behaviour per accepted connection, in order (one request per connection: no shared connections);
        // then the listener closes, so the remaining requests are refused.
        List<String> plan = List.of("502", "503", "504", "500", "404", "201", "reset", "close", "hang");
        int requests = 12; // 4 rps for 3 s
        try (FaultServer server = new FaultServer(plan)) {
            Path out = runGatling(server.port(), 4, 3);
            Map<String, Long> kinds = errorKinds(out);
            Map<String, Long> expected = new TreeMap<>(Map.of("status_502", 1L, "status_503", 1L, "status_504", 1L,
                    "status_5xx", 1L, "status_4xx", 1L, "other", 1L, "connect_reset", 2L, "timeout_injector", 1L,
                    "connect_refused", (long) (requests - plan.size())));
            assertEquals(expected, kinds, "errors.csv; gatling output:\n" + Files.readString(tmp.resolve("out.txt")));
            Map<?, ?> meta = new ObjectMapper().readValue(out.resolve(RawFiles.META).toFile(), Map.class);
            assertEquals(Map.of("request_ms", REQUEST_TIMEOUT_MS, "connect_ms", CONNECT_TIMEOUT_MS),
                    meta.get("timeouts"));
            assertEquals(ErrorKind.ids(), meta.get("error_kinds"));
            assertEquals(Map.of("sent", requests, "ok", 0, "ko", requests), Map.of("sent",
                    ((Map<?, ?>) meta.get("totals")).get("sent"), "ok", ((Map<?, ?>) meta.get("totals")).get("ok"),
                    "ko", ((Map<?, ?>) meta.get("totals")).get("ko")));
        }
    }

    @Test
    void aConnectionNeverAcceptedIsAConnectTimeout() throws Exception {
        // A listener that never accepts, its backlog already full: Linux drops further SYNs (no RST), so the
        // injector's connect timeout ends each attempt.
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            List<Socket> queued = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    Socket s = new Socket();
                    try {
                        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), full.getLocalPort()), 300);
                        queued.add(s);
                    } catch (IOException e) {
                        s.close(); // the queue is full: what the injector will meet
                    }
                }
                Path out = runGatling(full.getLocalPort(), 2, 2);
                assertEquals(Map.of("connect_timeout", 4L), errorKinds(out),
                        "gatling output:\n" + Files.readString(tmp.resolve("out.txt")));
            } finally {
                for (Socket s : queued) {
                    s.close();
                }
            }
        }
    }

    /** One stairs level of {@code rps} for {@code seconds}, no warm-up; returns the raw files' folder. */
    private Path runGatling(int port, int rps, int seconds) throws Exception {
        Map<String, Object> props = new TreeMap<>();
        props.put("baseUrl", "http://127.0.0.1:" + port);
        props.put("delayMs", 1);
        props.put("startRps", rps);
        props.put("peakRps", rps);
        props.put("steps", 1);
        props.put("stepSeconds", seconds);
        props.put("warmupSeconds", 0);
        props.put("requestTimeoutMs", REQUEST_TIMEOUT_MS);
        props.put("connectTimeoutMs", CONNECT_TIMEOUT_MS);
        props.put("stopOnCollapse", false);
        return GatlingProcess.run(tmp, props);
    }

    private static Map<String, Long> errorKinds(Path out) throws IOException {
        List<String> lines = Files.readAllLines(out.resolve(RawFiles.ERRORS));
        assertEquals(RawFiles.ERRORS_HEADER, lines.get(0));
        Map<String, Long> kinds = new TreeMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            assertTrue(ErrorKind.ids().contains(f[1]), line);
            kinds.merge(f[1], Long.parseLong(f[2]), Long::sum);
        }
        return kinds;
    }

    /** Plays one planned behaviour per accepted connection, then stops listening (later connects are refused). */
    private static final class FaultServer implements AutoCloseable {
        private final ServerSocket listener;
        private final List<Socket> open = new CopyOnWriteArrayList<>();
        private final Thread acceptor;

        FaultServer(List<String> plan) throws IOException {
            listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            acceptor = new Thread(() -> {
                try {
                    for (String behaviour : plan) {
                        Socket s = listener.accept();
                        open.add(s);
                        Thread.ofVirtual().start(() -> play(s, behaviour));
                    }
                    listener.close();
                } catch (IOException e) {
                    // closed by close()
                }
            }, "fault-server");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return listener.getLocalPort();
        }

        private static void play(Socket s, String behaviour) {
            try {
                readRequestHead(s.getInputStream());
                switch (behaviour) {
                    case "reset" -> {
                        s.setSoLinger(true, 0); // close with RST
                        s.close();
                    }
                    case "close" -> s.close(); // FIN, no answer
                    case "hang" -> {
                        // no answer: the injector's request timeout ends it; closed by close()
                    }
                    default -> {
                        String body = "{\"title\":\"planned failure\",\"status\":" + behaviour + "}";
                        s.getOutputStream().write(("HTTP/1.1 " + behaviour + " Planned\r\nContent-Type: "
                                + "application/problem+json\r\nContent-Length: " + body.length()
                                + "\r\nConnection: close\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));
                        s.getOutputStream().flush();
                    }
                }
            } catch (IOException e) {
                // the client went away: nothing to play
            }
        }

        private static void readRequestHead(InputStream in) throws IOException {
            int matched = 0;
            byte[] end = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            int b;
            while (matched < end.length && (b = in.read()) >= 0) {
                matched = b == end[matched] ? matched + 1 : (b == end[0] ? 1 : 0);
            }
        }

        @Override
        public void close() throws IOException {
            listener.close();
            for (Socket s : open) {
                s.close();
            }
        }
    }
}
