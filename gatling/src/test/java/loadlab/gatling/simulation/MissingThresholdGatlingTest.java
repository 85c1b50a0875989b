package loadlab.gatling.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import loadlab.gatling.config.HarnessThresholds;
import loadlab.gatling.recorder.RawFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real simulation, started as the harness starts it but without one health-rule threshold, refuses to start: one
 * line naming the property, Gatling's "invalid arguments" exit, no raw file, no request sent. The harness's values
 * (harness/loadlab/core/thresholds.py) are then the only ones a run can judge with.
 */
class MissingThresholdGatlingTest {

    @TempDir
    Path tmp;

    @Test
    void aRunWithoutAThresholdFailsAtStartNamingIt() throws Exception {
        Map<String, Object> props = new LinkedHashMap<>(HarnessThresholds.properties());
        props.remove("p99SlackMs");
        // Nothing listens there; the run must end before it would send anything.
        props.put("baseUrl", "http://127.0.0.1:9");
        int exit = GatlingProcess.exitCode(tmp, props);
        String output = GatlingProcess.output(tmp);
        assertEquals(1, exit, output);
        assertTrue(output.contains("LOADLAB ERROR loadlab.p99SlackMs: missing; a health-rule threshold has no default"),
                output);
        assertFalse(output.contains("LOADLAB inj="), output);
        assertFalse(Files.exists(GatlingProcess.rawFiles(tmp).resolve(RawFiles.META)), output);
    }
}
