package loadlab.gatling.health;

import java.util.LinkedHashMap;
import java.util.Map;

import loadlab.gatling.config.LoadConfig;
import loadlab.gatling.config.Schedule;
import loadlab.gatling.recorder.RawFiles;
import loadlab.gatling.recorder.SecondRecorder;
import org.HdrHistogram.Histogram;

/**
 * A level's health, judged once its last second is in: its seconds' counts and successful latencies added up, the
 * {@link HealthRule} applied against the baseline p50 (given by a refinement pass, else that of the first level that
 * kept up). Only successful requests' latency counts, as harness/loadlab/analysis/knee.py judges.
 */
public final class LevelJudge {

    /** A judged level, with the words the console and an early stop name it by. */
    public record Judged(Schedule.Level level, HealthRule.Verdict verdict, double p50Ms, double p99Ms, String where) {
    }

    private final LoadConfig cfg;
    private final Schedule schedule;
    private final HealthRule rule;
    private final Map<Integer, Judged> judged = new LinkedHashMap<>();
    private double baselineP50Ms;

    // The level under way; touched by one thread at a time (RunMonitor's lock).
    private int level = -1;
    private int seconds;
    private long ok;
    private long ko;
    private Histogram okLatency;

    public LevelJudge(LoadConfig cfg, Schedule schedule) {
        this.cfg = cfg;
        this.schedule = schedule;
        this.rule = HealthRule.of(cfg);
        this.baselineP50Ms = cfg.baselineGiven() ? cfg.baselineP50Ms() : Double.NaN;
    }

    /**
     * Adds one second of a level.
     *
     * @param offset the second's index from injection second 0
     * @return the level's verdict when this was its last second, else null
     */
    public Judged second(int levelIndex, SecondRecorder.SecondStats s, long offset) {
        if (levelIndex != level) {
            level = levelIndex;
            seconds = 0;
            ok = 0;
            ko = 0;
            okLatency = SecondRecorder.newHistogram();
        }
        Schedule.Level l = schedule.levels().get(levelIndex);
        if (offset >= l.startSecond() + settleSeconds(l)) {
            seconds++;
            ok += s.ok();
            ko += s.ko();
            okLatency.add(s.okHistogram());
        }
        return offset == l.endSecond() - 1 ? judge(l) : null;
    }

    /**
     * The level's first seconds after its step, not judged: the run's {@code settleSeconds}, none when the level is
     * not longer than them (harness/loadlab/summary/reading/seconds.py build_tables, the same rule).
     */
    private int settleSeconds(Schedule.Level l) {
        int settle = (int) cfg.settleSeconds();
        return l.seconds() > settle ? settle : 0;
    }

    /** The verdict of that level, null when it was never judged (not reached, or cut before its last second). */
    public Judged judged(int levelIndex) {
        return judged.get(levelIndex);
    }

    /** The baseline p50 the levels are judged against; NaN until a level kept up (or a refinement pass gave it). */
    public double baselineP50Ms() {
        return baselineP50Ms;
    }

    /** The rate offered just before a level: the previous level's, or the warm-up's (0 without one). */
    private double previousTargetRps(Schedule.Level l) {
        return l.index() > 0 ? schedule.levels().get(l.index() - 1).targetRps() : schedule.warmupRps();
    }

    private Judged judge(Schedule.Level l) {
        HealthRule.LevelStats stats = new HealthRule.LevelStats(l.targetRps(), previousTargetRps(l), seconds, ok, ko,
                okLatency, settleSeconds(l));
        double p50 = stats.p50Ms();
        double p99 = stats.p99Ms();
        // The first level that kept up gives the baseline, never a broken one (a cold start falling behind would lift
        // every later limit): harness/loadlab/analysis/baseline.py, the same rule. Until then a level is judged
        // against its own p50, and is unhealthy on its rate or errors anyway.
        if (Double.isNaN(baselineP50Ms) && rule.keepsUp(stats)) {
            baselineP50Ms = p50;
        }
        double baseline = Double.isNaN(baselineP50Ms) ? p50 : baselineP50Ms;
        HealthRule.Verdict v = rule.judge(stats, baseline);
        level = -1;
        okLatency = null;
        String where = "level " + (l.index() + 1) + "/" + schedule.steps() + " (target " + RawFiles.rate(l.targetRps())
                + " rps)";
        Judged j = new Judged(l, v, p50, p99, where);
        judged.put(l.index(), j);
        return j;
    }
}
