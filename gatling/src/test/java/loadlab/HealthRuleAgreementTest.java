package loadlab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The early stop's rule gives the same verdicts as the analysis on one shared fixture, which
 * harness/tests/test_health_rule_agreement.py runs through harness/loadlab/analysis/knee.py.
 */
class HealthRuleAgreementTest {

    static final File FIXTURE = new File("../harness/tests/data/health_cases.json");

    @SuppressWarnings("unchecked")
    static Map<String, Object> fixture() throws Exception {
        return new ObjectMapper().readValue(FIXTURE, Map.class);
    }

    @SuppressWarnings("unchecked")
    static Stream<Map<String, Object>> cases() throws Exception {
        return ((List<Map<String, Object>>) fixture().get("cases")).stream();
    }

    @Test
    @SuppressWarnings("unchecked")
    void theSimulationsDefaultThresholdsAreTheFixtures() throws Exception {
        Map<String, Object> t = (Map<String, Object>) fixture().get("thresholds");
        LoadConfig defaults = LoadConfig.parse(Map.of());
        assertEquals(((Number) t.get("ok_ratio")).doubleValue(), defaults.okRatio());
        assertEquals(((Number) t.get("max_error_ratio")).doubleValue(), defaults.maxErrorRatio());
        assertEquals(((Number) t.get("p99_factor")).doubleValue(), defaults.p99Factor());
        assertEquals(((Number) t.get("p99_slack_ms")).doubleValue(), defaults.p99SlackMs());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    @SuppressWarnings("unchecked")
    void theEarlyStopGivesTheSharedVerdict(Map<String, Object> c) {
        Histogram ok = SecondRecorder.newHistogram();
        for (Number v : (List<Number>) c.get("ok_latencies_ms")) {
            ok.recordValue(v.longValue());
        }
        boolean any = ok.getTotalCount() > 0;
        HealthRule.LevelStats level = new HealthRule.LevelStats(((Number) c.get("target_rps")).doubleValue(),
                ((Number) c.get("seconds")).intValue(), ((Number) c.get("ok")).longValue(),
                ((Number) c.get("ko")).longValue(), any ? ok.getValueAtPercentile(50) : 0,
                any ? ok.getValueAtPercentile(99) : 0);
        HealthRule rule = HealthRule.of(LoadConfig.parse(Map.of()));
        HealthRule.Verdict v = rule.judge(level, ((Number) c.get("baseline_p50_ms")).doubleValue());
        assertEquals(c.get("healthy"), v.healthy(), c.get("name") + ": " + v.reason());
    }
}
