package loadlab.gatling.health;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

import loadlab.gatling.config.LoadConfig;
import loadlab.gatling.config.Schedule;

/**
 * Ends the load before the schedule does, and keeps what meta.json says of it (the reason, the instant, and for the
 * in-flight cap its numbers): too many requests in flight ({@code loadlab.maxInflight}), levels judged unhealthy
 * ({@code loadlab.stopAfterUnhealthy} in a row, with {@code loadlab.stopOnCollapse}), or the JVM going down mid-run.
 * Once stopped, no request is sent any more; the first reason stands, and is told once to {@code onStop} (the
 * console's line).
 */
public final class EarlyStop {

    private final LoadConfig cfg;
    private final int steps;
    private final Consumer<String> onStop;

    private volatile String reason;
    private volatile long epochMs = -1;
    // When the in-flight cap stopped the load: {inflight, max_inflight}, so the harness reads numbers, not the reason.
    private volatile Map<String, Object> inflightCap;
    // Touched by one thread at a time (RunMonitor's lock).
    private int unhealthyInARow;

    public EarlyStop(LoadConfig cfg, Schedule schedule, Consumer<String> onStop) {
        this.cfg = cfg;
        this.steps = schedule.steps();
        this.onStop = onStop;
    }

    public boolean stopped() {
        return reason != null;
    }

    /** Why the load stopped; null while it goes on. */
    public String reason() {
        return reason;
    }

    /** When it stopped (epoch ms), -1 while it goes on. */
    public long epochMs() {
        return epochMs;
    }

    /** {inflight, max_inflight} when the in-flight cap stopped it, else null. */
    public Map<String, Object> inflightCap() {
        return inflightCap;
    }

    /** Checked before every send: stops once more than {@code loadlab.maxInflight} requests are under way. */
    public boolean stopsAt(long inflight) {
        if (reason == null && inflight > cfg.maxInflight()) {
            Map<String, Object> cap = new LinkedHashMap<>();
            cap.put("inflight", inflight);
            cap.put("max_inflight", cfg.maxInflight());
            stop("inflight " + inflight + " > loadlab.maxInflight " + cfg.maxInflight(), System.currentTimeMillis(),
                    cap);
        }
        return stopped();
    }

    /** After each judged level: enough unhealthy levels in a row stop the load. */
    public void judged(LevelJudge.Judged j, long nowMs) {
        HealthRule.Verdict v = j.verdict();
        unhealthyInARow = v.healthy() ? 0 : unhealthyInARow + 1;
        int index = j.level().index();
        // Not after the first level when it is the baseline: it is the lowest rate (cannot exhaust anything), where a
        // cold-start spike is noise. With a given baseline (a refinement pass) the first level is a rate already
        // measured healthy, and finding it unhealthy ends the pass at once. Not after the last one either: the load
        // is over anyway.
        boolean firstLevelMayStop = index > 0 || cfg.baselineGiven();
        if (unhealthyInARow >= cfg.stopAfterUnhealthy() && cfg.stopOnCollapse() && firstLevelMayStop
                && index < steps - 1) {
            stop(j.where() + " unhealthy" + (unhealthyInARow > 1 ? " (" + unhealthyInARow + " levels in a row)" : "")
                    + ": " + v.reason(), nowMs);
        }
    }

    public void stop(String why, long nowMs) {
        stop(why, nowMs, null);
    }

    private synchronized void stop(String why, long nowMs, Map<String, Object> cap) {
        if (reason == null) {
            epochMs = nowMs;
            inflightCap = cap;
            reason = why;
            onStop.accept(why);
        }
    }
}
