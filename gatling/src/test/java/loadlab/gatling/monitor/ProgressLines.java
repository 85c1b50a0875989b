package loadlab.gatling.monitor;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

import loadlab.gatling.config.LoadConfig;
import loadlab.gatling.config.Schedule;
import loadlab.gatling.health.HealthRule;
import loadlab.gatling.health.LevelJudge;
import loadlab.gatling.recorder.RawFiles;
import loadlab.gatling.recorder.SecondRecorder;
import org.HdrHistogram.Histogram;

/**
 * The console's {@code LOADLAB } lines, which a user follows the run by and the harness shows
 * (harness/loadlab/run/console.py): the start, one line per second, a level's verdict, an early stop, the end.
 */
final class ProgressLines {

    private final PrintStream out;
    private final String inj;
    private final Schedule schedule;

    ProgressLines(PrintStream out, int injectorIndex, Schedule schedule) {
        this.out = out;
        this.inj = "inj=" + injectorIndex;
        this.schedule = schedule;
    }

    void started(LoadConfig cfg, Path dir) {
        println(inj + " start profile=" + cfg.profile() + " levels=" + schedule.steps() + "x" + schedule.stepSeconds()
                + "s target=" + RawFiles.rate(schedule.startRps()) + ".." + RawFiles.rate(schedule.peakRps())
                + " rps warmup=" + schedule.warmupSeconds() + "s@" + RawFiles.rate(schedule.warmupRampFromRps())
                + "->" + RawFiles.rate(schedule.warmupRps())
                + " (rates of this injector) out=" + dir);
    }

    void second(SecondRecorder.SecondStats s, Schedule.SecondPlan plan) {
        Histogram all = s.okHistogram().copy();
        all.add(s.koHistogram());
        String phase = plan.level() < 0 && plan.phase().equals(Schedule.MEASURE) ? "drain" : plan.phase();
        println(inj + " phase=" + phase + " level=" + (plan.level() < 0 ? "-" : plan.level() + 1) + "/"
                + schedule.steps() + " target=" + RawFiles.rate(plan.targetRps()) + " sent=" + s.sent() + " ok="
                + s.ok() + " ko=" + s.ko() + " p99=" + (all.getTotalCount() > 0
                ? all.getValueAtPercentile(99) + "ms" : "-") + " inflight=" + s.inflight());
    }

    void verdict(LevelJudge.Judged j) {
        HealthRule.Verdict v = j.verdict();
        println(inj + " " + j.where() + (v.healthy() ? " healthy" : " UNHEALTHY: " + v.reason())
                + String.format(Locale.ROOT, " ok_rps=%.1f errors=%.2f%% p50=%.0fms p99=%.0fms p99_limit=%.0fms",
                        v.okRps(), 100 * v.errorRatio(), j.p50Ms(), j.p99Ms(), v.p99LimitMs()));
    }

    void stopped(String reason) {
        println(inj + " STOP " + reason);
    }

    void done(RawOutput.Totals totals, String stopReason) {
        println(inj + " done sent=" + totals.sent() + " ok=" + totals.ok() + " ko=" + totals.ko() + " inflight="
                + totals.inflightAtEnd() + " stopped_early=" + (stopReason != null)
                + (stopReason != null ? " reason=" + stopReason : ""));
    }

    private void println(String line) {
        out.println("LOADLAB " + line);
        out.flush();
    }
}
