package loadlab.gatling.config;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The health rule's thresholds as the harness passes them to the simulation, for tests: the shared fixture's
 * {@code simulation_properties} (harness/tests/data/health_cases.json; harness/tests/core/test_thresholds.py holds
 * them to what harness/loadlab/core/thresholds.py passes). The simulation has no defaults of its own for them.
 */
public final class HarnessThresholds {

    static final File FIXTURE = new File("../harness/tests/data/health_cases.json");

    private HarnessThresholds() {
    }

    /** The fixture itself, as read. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> fixture() {
        try {
            return new ObjectMapper().readValue(FIXTURE, Map.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Name (without {@code loadlab.}) to value, as a system property would spell it. */
    @SuppressWarnings("unchecked")
    public static Map<String, String> properties() {
        Map<String, String> props = new LinkedHashMap<>();
        ((Map<String, Object>) fixture().get("simulation_properties")).forEach((k, v) -> props.put(k, v.toString()));
        return props;
    }

    /** {@code raw} with the thresholds added where it gives none. */
    public static Map<String, String> with(Map<String, String> raw) {
        Map<String, String> all = new LinkedHashMap<>(properties());
        all.putAll(raw);
        return all;
    }

    /** {@link LoadConfig#parse(Map)} of {@code raw} and the harness's thresholds. */
    public static LoadConfig parse(Map<String, String> raw) {
        return LoadConfig.parse(with(raw));
    }
}
