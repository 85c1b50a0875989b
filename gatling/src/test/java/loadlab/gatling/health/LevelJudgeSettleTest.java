package loadlab.gatling.health;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import loadlab.gatling.config.HarnessThresholds;
import loadlab.gatling.config.LoadConfig;
import loadlab.gatling.config.Schedule;
import loadlab.gatling.recorder.ErrorKind;
import loadlab.gatling.recorder.SecondRecorder;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The early stop leaves a level's first {@code settleSeconds} out of its judgment, as the analysis does
 * (harness/loadlab/summary/reading/seconds.py build_tables): a transient right after a step does not stop the pass.
 */
class LevelJudgeSettleTest {

    @Test
    void aTransientInTheSecondsAfterAStepDoesNotMakeTheLevelUnhealthy() {
        assertTrue(judgeLevelTwo("2").verdict().healthy());
    }

    @Test
    void withoutSettleSecondsTheSameTransientDoes() {
        assertFalse(judgeLevelTwo("0").verdict().healthy());
    }

    /** Two 10 s levels at 100 then 200 rps, 200 ms answers, but 2 s answers in level 2's first two seconds. */
    private static LevelJudge.Judged judgeLevelTwo(String settleSeconds) {
        LoadConfig cfg = HarnessThresholds.parse(Map.of("startRps", "100", "peakRps", "200", "steps", "2",
                "stepSeconds", "10", "warmupSeconds", "0", "settleSeconds", settleSeconds));
        Schedule schedule = Schedule.of(cfg);
        LevelJudge judge = new LevelJudge(cfg, schedule);
        LevelJudge.Judged last = null;
        for (Schedule.Level l : schedule.levels()) {
            for (int s = 0; s < l.seconds(); s++) {
                boolean slow = l.index() == 1 && s < 2;
                last = judge.second(l.index(), second((long) l.targetRps(), slow ? 2_000 : 200),
                        l.startSecond() + s);
            }
        }
        return last;
    }

    private static SecondRecorder.SecondStats second(long ok, long latencyMs) {
        Histogram h = SecondRecorder.newHistogram();
        h.recordValueWithCount(latencyMs, ok);
        return new SecondRecorder.SecondStats(0, ok, ok, 0, 0, h, SecondRecorder.newHistogram(),
                new long[ErrorKind.values().length]);
    }
}
