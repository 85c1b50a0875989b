package loadlab.gatling.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import loadlab.gatling.config.HarnessThresholds;
import loadlab.gatling.recorder.SecondRecorder;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class HealthRuleTest {

    /** The thresholds the harness passes (HarnessThresholds: harness/loadlab/core/thresholds.py's values). */
    private final HealthRule rule = HealthRule.of(HarnessThresholds.parse(Map.of()));

    /** ok requests at 200 ms but for those from the p99's rank on (the analysis's rank: 0.99 ok, rounded), at p99. */
    private static HealthRule.LevelStats level(double target, int seconds, long ok, long ko, long p99) {
        Histogram h = SecondRecorder.newHistogram();
        long slow = ok == 0 ? 0 : ok - (long) (0.99 * ok + 0.5) + 1;
        h.recordValueWithCount(200, ok - slow);
        h.recordValueWithCount(p99, slow);
        return new HealthRule.LevelStats(target, Double.NaN, seconds, ok, ko, h);
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
        HealthRule.Verdict v = rule.judge(level(100, 10, 0, 0, 0), 200);
        assertFalse(v.healthy());
        assertTrue(v.reason().contains("no successful response"), v.reason());
    }

    @Test
    void aShortLevelIsJudgedOnItsCountPastTheLimitAndSaysSo() {
        Histogram h = SecondRecorder.newHistogram();
        h.recordValueWithCount(110, 56);
        h.recordValueWithCount(240, 4);
        HealthRule.Verdict v = rule.judge(new HealthRule.LevelStats(30, Double.NaN, 2, 60, 0, h), 112);
        assertFalse(v.healthy());
        assertEquals(HealthRule.BY_COUNT, v.tailJudgedBy());
        assertEquals("4 of 60 requests above the 224 ms limit: more than a healthy 1% tail allows (p = 0.0031)",
                v.reason());
    }

    @Test
    void theBinomialTailIsExact() {
        assertEquals(1 - Math.pow(0.99, 66), HealthRule.binomialTail(66, 1, 0.01), 1e-12);
        assertEquals(0.009629773443364725, HealthRule.binomialTail(15, 2, 0.01), 1e-12); // scipy's binom.sf(1, 15, .01)
        assertEquals(1, HealthRule.binomialTail(10, 0, 0.01));
    }

    @Test
    void percentilesAreReadAtTheAnalysisRank() {
        Histogram h = SecondRecorder.newHistogram();
        h.recordValueWithCount(110, 65);
        h.recordValue(240);
        assertEquals(240, h.getValueAtPercentile(99)); // this library's rank: the 66th of 66
        assertEquals(110, HealthRule.valueAtPercentile(h, 99)); // hdrh's, the analysis's: the 65th
    }
}
