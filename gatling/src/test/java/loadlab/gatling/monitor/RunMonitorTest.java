package loadlab.gatling.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import loadlab.gatling.config.HarnessThresholds;
import loadlab.gatling.config.LoadConfig;
import loadlab.gatling.config.Schedule;
import loadlab.gatling.recorder.RawFiles;
import loadlab.gatling.recorder.SecondAnchor;
import loadlab.gatling.recorder.SecondRecorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

class RunMonitorTest {

    private static final long T0 = 1_763_730_000L;

    @TempDir
    Path dir;

    private final ByteArrayOutputStream console = new ByteArrayOutputStream();

    private RunMonitor monitor(String stopOnCollapse) {
        return monitor(stopOnCollapse, "1", "3");
    }

    private RunMonitor monitor(String stopOnCollapse, String stopAfterUnhealthy, String steps) {
        return monitor(stopOnCollapse, stopAfterUnhealthy, steps, "0");
    }

    private RunMonitor monitor(String stopOnCollapse, String stopAfterUnhealthy, String steps, String baselineP50Ms) {
        LoadConfig cfg = HarnessThresholds.parse(Map.of("startRps", "10", "peakRps", "30", "steps", steps,
                "stepSeconds", "2", "warmupSeconds", "0", "outDir", dir.toString(), "stopOnCollapse", stopOnCollapse,
                "stopAfterUnhealthy", stopAfterUnhealthy, "baselineP50Ms", baselineP50Ms));
        return new RunMonitor(cfg, Schedule.of(cfg), new PrintStream(console, true, StandardCharsets.UTF_8));
    }

    /** {@code n} requests sent at the start of {@code second}, answered after {@code latencyMs}. */
    private static void load(SecondRecorder r, long second, int n, long latencyMs) {
        for (int i = 0; i < n; i++) {
            r.sent(second * 1000 + i);
            r.completed(second * 1000 + i + latencyMs, latencyMs, true);
        }
    }

    @Test
    void alignsOnTheNextWholeSecond() {
        RunMonitor m = monitor("true");
        long delay = 700 + SecondAnchor.ALIGN_SLACK_MS;
        assertEquals(delay, m.alignDelayMs(T0 * 1000 + 300));
        assertEquals(delay, m.alignDelayMs(T0 * 1000 + 900)); // fixed by the first user
        assertEquals(T0 + 1, m.recorder().firstOpenSecond());
    }

    @Test
    void anUnhealthyLevelStopsTheLoadAndIsRecorded() throws Exception {
        RunMonitor m = monitor("true");
        m.alignDelayMs(T0 * 1000 + 300);
        long a = T0 + 1;
        load(m.recorder(), a, 10, 50);
        load(m.recorder(), a + 1, 10, 50);
        load(m.recorder(), a + 2, 20, 500);
        load(m.recorder(), a + 3, 20, 500);
        m.tick((a + 4) * 1000 + RunMonitor.GRACE_MS);

        assertTrue(m.shouldStop());
        // 40 requests cannot place a p99: the level is judged by its count past the limit (HealthRule's tail rule)
        assertTrue(m.stopReason().startsWith("level 2/3 (target 20 rps) unhealthy: 40 of 40 requests above the "
                + "150 ms limit"), m.stopReason());
        m.finish(null, (a + 4) * 1000 + 500);

        List<String> rows = Files.readAllLines(dir.resolve(RawFiles.SECONDS));
        assertEquals(RawFiles.CSV_HEADER, rows.get(0));
        assertEquals(a + ",measure,0,10,10,10,0,0", rows.get(1));
        assertEquals((a + 2) + ",measure,1,20,20,20,0,0", rows.get(3));
        assertEquals(6, rows.size());

        Map<?, ?> meta = new ObjectMapper().readValue(dir.resolve(RawFiles.META).toFile(), Map.class);
        assertEquals(true, meta.get("stopped_early"));
        assertTrue(meta.containsKey("stop_inflight_cap") && meta.get("stop_inflight_cap") == null, meta.toString());
        assertEquals(a * 1000, ((Number) meta.get("measure_start_epoch_ms")).longValue());
        List<?> levels = (List<?>) meta.get("levels");
        assertEquals(3, levels.size());
        Map<?, ?> second = (Map<?, ?>) levels.get(1);
        assertEquals(false, ((Map<?, ?>) second.get("verdict")).get("healthy"));
        Map<?, ?> third = (Map<?, ?>) levels.get(2);
        assertEquals(true, third.get("cut_short"));
        assertEquals((a + 4) * 1000 + RunMonitor.GRACE_MS, ((Number) third.get("end_epoch_ms")).longValue());
        assertEquals(60, ((Number) ((Map<?, ?>) meta.get("totals")).get("ok")).longValue());

        String out = console.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains(
                "LOADLAB inj=0 phase=measure level=2/3 target=20 sent=20 ok=20 ko=0 p99=500ms inflight=0"), out);
        assertTrue(out.contains("LOADLAB inj=0 STOP level 2/3"), out);
        out.lines().forEach(line -> assertTrue(line.startsWith("LOADLAB "), line));
    }

    @Test
    void theInflightCapStopsTheLoadAndRecordsItsNumbers() throws Exception {
        LoadConfig cfg = HarnessThresholds.parse(Map.of("startRps", "10", "peakRps", "30", "steps", "3",
                "stepSeconds", "2", "warmupSeconds", "0", "outDir", dir.toString(), "maxInflight", "5"));
        RunMonitor m = new RunMonitor(cfg, Schedule.of(cfg), new PrintStream(console, true, StandardCharsets.UTF_8));
        m.alignDelayMs(T0 * 1000);
        for (int i = 0; i < 6; i++) {
            m.recorder().sent(T0 * 1000 + i); // never answered
        }
        assertTrue(m.shouldStop());
        m.finish(null, (T0 + 1) * 1000);

        Map<?, ?> meta = new ObjectMapper().readValue(dir.resolve(RawFiles.META).toFile(), Map.class);
        assertEquals(Map.of("inflight", 6, "max_inflight", 5), meta.get("stop_inflight_cap"));
        assertEquals("inflight 6 > loadlab.maxInflight 5", meta.get("stop_reason"));
    }

    @Test
    void withoutStopOnCollapseTheRunGoesOn() {
        RunMonitor m = monitor("false");
        m.alignDelayMs(T0 * 1000);
        load(m.recorder(), T0, 10, 50);
        load(m.recorder(), T0 + 1, 10, 50);
        load(m.recorder(), T0 + 2, 5, 900);
        load(m.recorder(), T0 + 3, 5, 900);
        m.tick((T0 + 4) * 1000 + RunMonitor.GRACE_MS);
        assertFalse(m.shouldStop());
        assertTrue(console.toString(StandardCharsets.UTF_8).contains("UNHEALTHY"));
    }

    @Test
    void theBaselineLevelNeverStopsTheRun() {
        RunMonitor m = monitor("true");
        m.alignDelayMs(T0 * 1000);
        load(m.recorder(), T0, 2, 50);
        load(m.recorder(), T0 + 1, 2, 50);
        m.tick((T0 + 2) * 1000 + RunMonitor.GRACE_MS);
        assertTrue(console.toString(StandardCharsets.UTF_8).contains("level 1/3 (target 10 rps) UNHEALTHY"));
        assertFalse(m.shouldStop());
    }

    @Test
    void aGivenBaselineJudgesTheFirstLevelAndMayStopThere() {
        // A refinement pass: its first level is a rate the coarse pass measured healthy against a 50 ms baseline.
        RunMonitor m = monitor("true", "1", "3", "50");
        m.alignDelayMs(T0 * 1000);
        load(m.recorder(), T0, 10, 400);
        load(m.recorder(), T0 + 1, 10, 400);
        m.tick((T0 + 2) * 1000 + RunMonitor.GRACE_MS);
        assertTrue(m.shouldStop());
        String expected = "level 1/3 (target 10 rps) unhealthy: 20 of 20 requests above the 150 ms limit";
        assertTrue(m.stopReason().startsWith(expected), m.stopReason());
    }

    @Test
    void aGivenBaselineIsNotReplacedByTheFirstLevel() {
        RunMonitor m = monitor("true", "1", "3", "200");
        m.alignDelayMs(T0 * 1000);
        load(m.recorder(), T0, 10, 50);
        load(m.recorder(), T0 + 1, 10, 50);
        load(m.recorder(), T0 + 2, 20, 380);
        load(m.recorder(), T0 + 3, 20, 380);
        m.tick((T0 + 4) * 1000 + RunMonitor.GRACE_MS);
        // 380 ms is within max(2 x 200, 200 + 100) = 400 ms; against the first level's 50 ms it would not be.
        assertFalse(m.shouldStop(), console.toString(StandardCharsets.UTF_8));
    }

    @Test
    void stopAfterUnhealthyWaitsForThatManyUnhealthyLevelsInARow() {
        RunMonitor m = monitor("true", "2", "5"); // 10, 15, 20, 25, 30 rps
        m.alignDelayMs(T0 * 1000);
        load(m.recorder(), T0, 10, 50);
        load(m.recorder(), T0 + 1, 10, 50);
        load(m.recorder(), T0 + 2, 15, 500);
        load(m.recorder(), T0 + 3, 15, 500);
        m.tick((T0 + 4) * 1000 + RunMonitor.GRACE_MS);
        assertFalse(m.shouldStop());
        load(m.recorder(), T0 + 4, 20, 900);
        load(m.recorder(), T0 + 5, 20, 900);
        m.tick((T0 + 6) * 1000 + RunMonitor.GRACE_MS);
        assertTrue(m.shouldStop());
        assertTrue(m.stopReason().startsWith("level 3/5 (target 20 rps) unhealthy (2 levels in a row): 40 of 40 "
                + "requests above"), m.stopReason());
    }
}
