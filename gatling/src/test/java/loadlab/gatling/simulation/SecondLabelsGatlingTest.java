package loadlab.gatling.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;

import loadlab.gatling.config.Schedule;
import loadlab.gatling.recorder.RawFiles;
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
            // The warm-up's first second asks for 0.65 users, so Gatling injects none or, on a second that started
            // late against the injection's own clock, one: either way it is labelled warm-up, and the warm-up keeps
            // its four seconds, so the levels after it start where the schedule says.
            assertEquals(Schedule.WARMUP, rows.get(0)[1], context);
            assertTrue(Integer.parseInt(rows.get(0)[4]) <= 1,
                    "the warm-up's first second asks for 0.65 users; " + context);
            assertEquals(4, rows.stream().filter(r -> r[1].equals(Schedule.WARMUP)).count(), context);
            // Each measured second's level label, in order, and the requests sent under each label. A request is
            // counted in the second it went out: on a busy machine one scheduled just before a second's end may go out
            // just after it (seen: a warm-up request in level 0's first second), so each level's count is within one
            // request of its rate × seconds; a label one second off would move two to four requests.
            List<String> labels = new ArrayList<>();
            Map<String, Integer> sentByLabel = new TreeMap<>();
            for (String[] r : rows) {
                if (r[1].equals(Schedule.MEASURE)) {
                    labels.add(r[2]);
                    sentByLabel.merge(r[2], Integer.parseInt(r[4]), Integer::sum);
                }
            }
            assertEquals(List.of("0", "0", "1", "1"), labels.subList(0, 4), context);
            for (String tail : labels.subList(4, labels.size())) {
                assertEquals("-1", tail, context);
            }
            int level0 = sentByLabel.getOrDefault("0", 0);
            int level1 = sentByLabel.getOrDefault("1", 0);
            int after = sentByLabel.getOrDefault("-1", 0);
            assertTrue(Math.abs(level0 - 2 * 2) <= 1, "level 0: 2 rps for 2 s; " + context);
            assertTrue(Math.abs(level1 - 4 * 2) <= 1, "level 1: 4 rps for 2 s; " + context);
            assertTrue(after <= 1, "nothing scheduled after the last level; " + context);
            Map<?, ?> meta = new ObjectMapper().readValue(out.resolve(RawFiles.META).toFile(), Map.class);
            long firstMeasured = rows.stream().filter(r -> r[1].equals(Schedule.MEASURE)).findFirst().map(r -> r[0])
                    .map(Long::parseLong).orElseThrow();
            assertEquals(firstMeasured * 1000, ((Number) meta.get("measure_start_epoch_ms")).longValue(), context);
        } finally {
            server.stop(0);
        }
    }
}
