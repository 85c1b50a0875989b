package loadlab.gatling.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import loadlab.gatling.config.HarnessThresholds;
import loadlab.gatling.config.LoadConfig;
import loadlab.gatling.config.Schedule;
import loadlab.gatling.recorder.ErrorKind;
import loadlab.gatling.recorder.SecondRecorder;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Whole passes of the shared fixture's {@code stairs}, fed second by second to the early stop's {@link LevelJudge} and
 * {@link EarlyStop}: each level's health, the live baseline and the level the pass ends at are the ones
 * harness/tests/analysis/test_health_rule_agreement.py finds with the analysis (knee.judge). The two sides never
 * disagree on whether a level ended the pass.
 */
class HealthRuleStairsTest {

    @SuppressWarnings("unchecked")
    static Stream<Map<String, Object>> stairs() {
        return ((List<Map<String, Object>>) HarnessThresholds.fixture().get("stairs")).stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stairs")
    @SuppressWarnings("unchecked")
    void theEarlyStopEndsThePassWhereTheAnalysisFindsItsFirstUnhealthyLevel(Map<String, Object> c) {
        List<Map<String, Object>> specs = (List<Map<String, Object>>) c.get("levels");
        double first = ((Number) specs.get(0).get("target_rps")).doubleValue();
        double last = ((Number) specs.get(specs.size() - 1).get("target_rps")).doubleValue();
        int stepSeconds = ((Number) specs.get(0).get("seconds")).intValue();
        LoadConfig cfg = HarnessThresholds.parse(Map.of("startRps", rate(first), "peakRps", rate(last), "steps",
                Integer.toString(specs.size()), "stepSeconds", Integer.toString(stepSeconds), "warmupSeconds", "0",
                "stopOnCollapse", "true", "stopAfterUnhealthy", "1"));
        Schedule schedule = Schedule.of(cfg);
        LevelJudge judge = new LevelJudge(cfg, schedule);
        EarlyStop stop = new EarlyStop(cfg, schedule, reason -> { });
        List<Boolean> healthy = new ArrayList<>();
        Integer stoppedAt = null;
        for (Schedule.Level l : schedule.levels()) {
            Map<String, Object> spec = specs.get(l.index());
            assertEquals(((Number) spec.get("target_rps")).doubleValue(), l.targetRps(), 1e-9);
            LevelJudge.Judged j = null;
            for (int s = 0; s < l.seconds(); s++) {
                // the level's whole counts and latencies in its last second: the judge adds its seconds up
                boolean lastSecond = s == l.seconds() - 1;
                j = judge.second(l.index(), second(spec, lastSecond), l.startSecond() + s);
            }
            healthy.add(j.verdict().healthy());
            stop.judged(j, 0);
            if (stop.stopped() && stoppedAt == null) {
                stoppedAt = l.index();
            }
        }
        assertEquals(c.get("healthy"), healthy, (String) c.get("name"));
        assertEquals(((Number) c.get("baseline_p50_ms")).doubleValue(), judge.baselineP50Ms(), 1e-9);
        assertEquals(c.get("first_unhealthy"), stoppedAt, stop.reason());
    }

    private static String rate(double rps) {
        return Long.toString(Math.round(rps));
    }

    @SuppressWarnings("unchecked")
    private static SecondRecorder.SecondStats second(Map<String, Object> spec, boolean whole) {
        Histogram ok = SecondRecorder.newHistogram();
        if (whole) {
            for (List<Number> pair : (List<List<Number>>) spec.get("ok_latencies_ms")) {
                ok.recordValueWithCount(pair.get(0).longValue(), pair.get(1).longValue());
            }
        }
        long okCount = whole ? ((Number) spec.get("ok")).longValue() : 0;
        long koCount = whole ? ((Number) spec.get("ko")).longValue() : 0;
        return new SecondRecorder.SecondStats(0, okCount + koCount, okCount, koCount, 0, ok,
                SecondRecorder.newHistogram(), new long[ErrorKind.values().length]);
    }
}
