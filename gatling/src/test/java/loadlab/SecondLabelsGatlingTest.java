package loadlab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

/**
 * Every second of seconds.csv carries the rate its label says, in a real Gatling: each level's requests in the
 * level's own seconds, nothing after the last one. The warm-up here climbs from 0.2 rps, so Gatling injects nobody
 * in its first second: the labels must still count from that second (a fine pass warms up at half of a low knee).
 */
class SecondLabelsGatlingTest {

    @TempDir
    Path tmp;

    @Test
    void aWarmUpWithAnEmptyFirstSecondKeepsEveryLevelInItsOwnSeconds() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
        try {
            Map<String, Object> props = new TreeMap<>();
            props.put("baseUrl", "http://127.0.0.1:" + server.getAddress().getPort());
            props.put("delayMs", 1);
            props.put("warmupSeconds", 4);
            props.put("warmupRps", 2);
            props.put("startRps", 2);
            props.put("peakRps", 4);
            props.put("steps", 2);
            props.put("stepSeconds", 2);
            props.put("stopOnCollapse", false);
            Path out = GatlingProcess.run(tmp, props);
            List<String> lines = Files.readAllLines(out.resolve(RawFiles.SECONDS));
            List<String[]> rows = new ArrayList<>();
            for (String line : lines.subList(1, lines.size())) {
                rows.add(line.split(","));
            }
            String context = "seconds.csv:\n" + Files.readString(out.resolve(RawFiles.SECONDS)) + "gatling output:\n"
                    + GatlingProcess.output(tmp);
            assertEquals("warmup,0", rows.get(0)[1] + "," + rows.get(0)[4],
                    "the warm-up's first second sends nothing (0.65 users: Gatling injects none); " + context);
            List<String> measured = new ArrayList<>();
            for (String[] r : rows) {
                if (r[1].equals(Schedule.MEASURE)) {
                    measured.add(r[2] + ":" + r[4]);
                }
            }
            // level:sent per second; the seconds after the last level send nothing.
            assertEquals(List.of("0:2", "0:2", "1:4", "1:4"), measured.subList(0, 4), context);
            for (String tail : measured.subList(4, measured.size())) {
                assertEquals("-1:0", tail, context);
            }
            Map<?, ?> meta = new ObjectMapper().readValue(out.resolve(RawFiles.META).toFile(), Map.class);
            long firstMeasured = rows.stream().filter(r -> r[1].equals(Schedule.MEASURE)).findFirst().map(r -> r[0])
                    .map(Long::parseLong).orElseThrow();
            assertEquals(firstMeasured * 1000, ((Number) meta.get("measure_start_epoch_ms")).longValue(), context);
        } finally {
            server.stop(0);
        }
    }
}
