package loadlab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

class HealthRuleTest {

    /** The thresholds the harness passes (HarnessThresholds: harness/loadlab/core/thresholds.py's values). */
    private final HealthRule rule = HealthRule.of(HarnessThresholds.parse(Map.of()));

    private static HealthRule.LevelStats level(double target, int seconds, long ok, long ko, double p99) {
        return new HealthRule.LevelStats(target, Double.NaN, seconds, ok, ko, 200, p99);
    }

    @Test
    void p99LimitIsTheLargerOfFactorAndSlack() {
        assertEquals(400, rule.p99LimitMs(200), 1e-9); // 2 x 200 beats 200 + 100
        assertEquals(150, rule.p99LimitMs(50), 1e-9); // 50 + 100 beats 2 x 50
    }

    @Test
    void aLevelThatKeepsUpIsHealthy() {
        HealthRule.Verdict v = rule.judge(level(100, 10, 960, 5, 390), 200);
        assertTrue(v.healthy(), v.reason());
        assertNull(v.reason());
        assertEquals(96.0, v.okRps(), 1e-9);
    }

    @Test
    void tooFewOkCompletionsIsUnhealthy() {
        HealthRule.Verdict v = rule.judge(level(100, 10, 940, 0, 210), 200);
        assertFalse(v.healthy());
        assertTrue(v.reason().startsWith("ok 94.0 rps"), v.reason());
    }

    @Test
    void tooManyErrorsIsUnhealthy() {
        HealthRule.Verdict v = rule.judge(level(100, 10, 1000, 11, 210), 200);
        assertFalse(v.healthy());
        assertTrue(v.reason().startsWith("errors 1.09%"), v.reason());
    }

    @Test
    void p99AboveTheLimitIsUnhealthyAndEveryReasonIsNamed() {
        assertFalse(rule.judge(level(100, 10, 1000, 0, 401), 200).healthy());
        assertTrue(rule.judge(level(100, 10, 1000, 0, 400), 200).healthy());
        HealthRule.Verdict v = rule.judge(level(100, 10, 500, 500, 900), 200);
        assertEquals(3, v.reason().split("; ").length, v.reason());
    }

    @Test
    void aLevelWithoutCompletionsIsUnhealthy() {
        HealthRule.Verdict v = rule.judge(new HealthRule.LevelStats(100, Double.NaN, 10, 0, 0, 0, 0), 200);
        assertFalse(v.healthy());
        assertTrue(v.reason().contains("no successful response"), v.reason());
    }
}
