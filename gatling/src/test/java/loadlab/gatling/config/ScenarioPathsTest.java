package loadlab.gatling.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * A SCENARIO mix's kinds are resolved by the harness (core/scenario_mix.endpoint) to the very request the single
 * scenario sends (LoadConfig.requestPath): both held to harness/tests/data/mix/scenario_paths.json.
 */
class ScenarioPathsTest {

    private static final Path CASES = Path.of("..", "harness", "tests", "data", "mix", "scenario_paths.json");

    @Test
    void eachScenarioAsksWhatTheHarnessResolvesItsKindTo() throws Exception {
        JsonNode cases = new ObjectMapper().readTree(Files.readString(CASES)).path("cases");
        assertTrue(cases.size() >= 4, "every scenario has a case");
        for (JsonNode c : cases) {
            LoadConfig config = HarnessThresholds.parse(Map.of("scenario", c.path("scenario").asText(), "delayMs",
                    c.path("delayMs").asText(), "cpuMs", c.path("cpuMs").asText(), "query",
                    c.path("query").asText("")));
            assertEquals(c.path("path").asText(), config.requestPath(), c.toString());
        }
    }
}
