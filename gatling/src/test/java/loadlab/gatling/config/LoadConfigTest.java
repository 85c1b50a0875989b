package loadlab.gatling.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.RecordComponent;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;

class LoadConfigTest {

    @Test
    void defaultsAreValid() {
        LoadConfig c = HarnessThresholds.parse(Map.of());
        assertEquals("http://127.0.0.1:8080", c.baseUrl());
        assertEquals(10_000, c.requestTimeoutMs());
        assertEquals(5_000, c.connectTimeoutMs());
        assertEquals(5_000, c.maxInflight());
        assertTrue(c.stopOnCollapse());
        assertEquals(Double.parseDouble(HarnessThresholds.properties().get("okRatio")), c.okRatio());
        assertEquals(1, c.injectors());
    }

    @Test
    void eachScenarioRequestsItsOwnEndpoint() {
        assertEquals("/forward?ms=200", HarnessThresholds.parse(Map.of()).requestPath());
        assertEquals("/db?ms=50&cpuMs=3",
                HarnessThresholds.parse(Map.of("scenario", "db", "delayMs", "50", "cpuMs", "3")).requestPath());
        assertEquals("/cpu?cpuMs=20", HarnessThresholds.parse(Map.of("scenario", "cpu", "cpuMs", "20")).requestPath());
        assertEquals("/pinned?ms=200", HarnessThresholds.parse(Map.of("scenario", "pinned")).requestPath());
        // An application under test: its own path, as given, whatever the scenario.
        assertEquals("/orders/42?x=1", HarnessThresholds.parse(Map.of("path", "/orders/42?x=1")).requestPath());
    }

    @Test
    void aBadScenarioOrACpuScenarioWithoutWorkIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HarnessThresholds.parse(Map.of("scenario", "grpc")));
        assertTrue(e.getMessage().contains("loadlab.scenario=grpc: expected"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> HarnessThresholds.parse(Map.of("scenario", "cpu")));
        assertTrue(e.getMessage().contains("loadlab.cpuMs=0: must be >= 1 when loadlab.scenario=cpu"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> HarnessThresholds.parse(Map.of("path", "/a#{x}")));
        assertTrue(e.getMessage().contains("loadlab.path=/a#{x}: expected"), e.getMessage());
    }

    @Test
    void startingAtChangesTheStartAndNothingElse() throws ReflectiveOperationException {
        LoadConfig before = HarnessThresholds.parse(Map.of("profile", "ramp", "injectors", "2", "baselineP50Ms", "40",
                "goFile", "/tmp/x.go"));
        LoadConfig after = before.startingAt(1_795_756_591_000L);
        assertEquals(1_795_756_591_000L, after.startAtEpochMs());
        for (RecordComponent c : LoadConfig.class.getRecordComponents()) {
            if (!List.of("startAtEpochMs", "effective").contains(c.getName())) {
                assertEquals(c.getAccessor().invoke(before), c.getAccessor().invoke(after), c.getName());
            }
        }
        // The same values in the same order, the start's replaced: meta.json records them so.
        Map<String, String> expected = new LinkedHashMap<>(before.effective());
        expected.put("startAtEpochMs", "1795756591000");
        assertEquals(List.copyOf(expected.entrySet()), List.copyOf(after.effective().entrySet()));
    }

    @Test
    void readsOnlyLoadlabSystemProperties() {
        Properties p = new Properties();
        p.setProperty("loadlab.baseUrl", "http://10.0.0.5:9000/");
        p.setProperty("loadlab.profile", "ramp");
        p.setProperty("loadlab.injectors", "2");
        p.setProperty("loadlab.injectorIndex", "1");
        p.setProperty("gatling.something", "ignored");
        HarnessThresholds.properties().forEach((name, value) -> p.setProperty(LoadConfig.PREFIX + name, value));
        LoadConfig c = LoadConfig.parse(p);
        assertEquals("http://10.0.0.5:9000", c.baseUrl());
        assertTrue(c.isRamp());
        assertEquals(1, c.injectorIndex());
        assertEquals("ramp", c.effective().get("profile"));
    }

    @Test
    void reportsEveryBadValueOnItsOwnLine() {
        Map<String, String> raw = new HashMap<>();
        raw.put("peakRps", "lots");
        raw.put("profile", "spike");
        raw.put("stopOnCollapse", "yes");
        raw.put("okRatio", "1.5");
        raw.put("baseUrl", "127.0.0.1:8080");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LoadConfig.parse(HarnessThresholds.with(raw)));
        String[] lines = e.getMessage().split("\n");
        assertEquals(5, lines.length, e.getMessage());
        assertTrue(e.getMessage().contains("loadlab.peakRps=lots: expected a number > 0"));
        assertTrue(e.getMessage().contains("loadlab.profile=spike: expected stairs or ramp"));
    }

    @Test
    void rejectsUnknownNamesAndInconsistentValues() {
        assertThrows(IllegalArgumentException.class, () -> HarnessThresholds.parse(Map.of("stepSecs", "3")));
        assertThrows(IllegalArgumentException.class,
                () -> HarnessThresholds.parse(Map.of("startRps", "300", "peakRps", "200")));
        assertThrows(IllegalArgumentException.class,
                () -> HarnessThresholds.parse(Map.of("injectors", "2", "injectorIndex", "2")));
        // Below 1 rps per injector Gatling may inject nobody in the first second, shifting the schedule.
        assertThrows(IllegalArgumentException.class,
                () -> HarnessThresholds.parse(Map.of("injectors", "4", "startRps", "3", "peakRps", "10")));
        assertThrows(IllegalArgumentException.class,
                () -> HarnessThresholds.parse(Map.of("warmupSeconds", "5", "warmupRps", "0")));
        assertFalse(HarnessThresholds.parse(Map.of("warmupSeconds", "0", "warmupRps", "0")).warmupSeconds() > 0);
    }

    @Test
    void aMissingThresholdIsRefusedNamingIt() {
        for (String name : LoadConfig.REQUIRED) {
            Map<String, String> raw = HarnessThresholds.with(Map.of());
            raw.remove(name);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LoadConfig.parse(raw));
            // One line, naming the property and what it takes.
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
            assertTrue(e.getMessage().startsWith("loadlab." + name + ": missing; a health-rule threshold has no "
                    + "default here"), e.getMessage());
            assertTrue(e.getMessage().contains("expected a number"), e.getMessage());
        }
        // None given: each on its own line.
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LoadConfig.parse(Map.of()));
        assertEquals(LoadConfig.REQUIRED.size(), e.getMessage().split("\n").length, e.getMessage());
    }
}
