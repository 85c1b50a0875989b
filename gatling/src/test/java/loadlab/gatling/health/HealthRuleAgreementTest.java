package loadlab.gatling.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import loadlab.gatling.config.HarnessThresholds;
import loadlab.gatling.config.LoadConfig;
import loadlab.gatling.recorder.SecondRecorder;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The early stop's rule gives the same verdicts as the analysis on one shared fixture, which
 * harness/tests/analysis/test_health_rule_agreement.py runs through harness/loadlab/analysis/knee.py, with the
 * thresholds the harness passes: the simulation has none of its own.
 */
class HealthRuleAgreementTest {

    @SuppressWarnings("unchecked")
    static Stream<Map<String, Object>> cases() {
        return ((List<Map<String, Object>>) HarnessThresholds.fixture().get("cases")).stream();
    }

    @Test
    @SuppressWarnings("unchecked")
    void theSimulationRequiresExactlyTheThresholdsTheHarnessPassesAndJudgesWithThem() {
        assertEquals(HarnessThresholds.properties().keySet(), Set.copyOf(LoadConfig.REQUIRED));
        Map<String, Object> t = (Map<String, Object>) HarnessThresholds.fixture().get("thresholds");
        HealthRule expected = new HealthRule(((Number) t.get("ok_ratio")).doubleValue(),
                ((Number) t.get("max_error_ratio")).doubleValue(), ((Number) t.get("p99_factor")).doubleValue(),
                ((Number) t.get("p99_slack_ms")).doubleValue(), ((Number) t.get("p50_slack_ms")).doubleValue());
        assertEquals(expected, HealthRule.of(HarnessThresholds.parse(Map.of())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    @SuppressWarnings("unchecked")
    void theEarlyStopGivesTheSharedVerdict(Map<String, Object> c) {
        Histogram ok = SecondRecorder.newHistogram();
        for (Number v : (List<Number>) c.get("ok_latencies_ms")) {
            ok.recordValue(v.longValue());
        }
        Number previous = (Number) c.get("previous_target_rps");
        HealthRule.LevelStats level = new HealthRule.LevelStats(((Number) c.get("target_rps")).doubleValue(),
                previous == null ? Double.NaN : previous.doubleValue(),
                ((Number) c.get("seconds")).intValue(), ((Number) c.get("ok")).longValue(),
                ((Number) c.get("ko")).longValue(), ok,
                ((Number) c.getOrDefault("settle_s", 0)).doubleValue());
        HealthRule rule = HealthRule.of(HarnessThresholds.parse(Map.of()));
        if (c.containsKey("p99_slack_ms")) { // a tailed downstream's widened p99 slack
            rule = new HealthRule(rule.okRatio(), rule.maxErrorRatio(), rule.p99Factor(),
                    ((Number) c.get("p99_slack_ms")).doubleValue(), rule.p50SlackMs());
        }
        HealthRule.Verdict v = rule.judge(level, ((Number) c.get("baseline_p50_ms")).doubleValue());
        assertEquals(c.get("healthy"), v.healthy(), c.get("name") + ": " + v.reason());
        if (c.containsKey("tail_judged_by")) {
            assertEquals(c.get("tail_judged_by"), v.tailJudgedBy(), (String) c.get("name"));
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theTailRuleIsTheFixtures() {
        Map<String, Object> t = (Map<String, Object>) HarnessThresholds.fixture().get("tail_rule");
        assertEquals(((Number) t.get("share")).doubleValue(), HealthRule.TAIL_SHARE);
        assertEquals(((Number) t.get("resolves_p99")).longValue(), HealthRule.RESOLVES_P99);
        assertEquals(((Number) t.get("alpha")).doubleValue(), HealthRule.TAIL_ALPHA);
        assertEquals(((Number) t.get("median_share")).doubleValue(), HealthRule.MEDIAN_SHARE);
    }
}
