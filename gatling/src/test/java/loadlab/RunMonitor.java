package loadlab;

import java.io.PrintStream;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;

/**
 * The simulation's side channel: aligns the schedule on whole seconds, feeds the recorder, and once a second turns
 * the completed second into raw-file lines, one progress line, and (at the end of a level) a health verdict that may
 * stop the load.
 */
public final class RunMonitor {

    /** A second is handed out this long after it ended, so completions timed just before the boundary are in. */
    static final long GRACE_MS = 200;
    private static final long TICK_MS = 100;
    /**
     * Gatling schedules users on whole milliseconds, one of them at ms 0 of every second; other users start a few ms
     * late (event-loop jitter) relative to the first one, which fixed the pause. A few ms of slack keeps the ms-0 users
     * in their own second instead of the one before, at the cost of the same few ms at the end of a second.
     */
    static final long ALIGN_SLACK_MS = 5;

    /** The injector's own limits in force, in ms (meta.json {@code timeouts}). */
    public record Timeouts(long requestMs, long connectMs) {
        static Timeouts of(LoadConfig cfg) {
            return new Timeouts(cfg.requestTimeoutMs(), cfg.connectTimeoutMs());
        }
    }

    private final LoadConfig cfg;
    private final Schedule schedule;
    private final Timeouts timeouts;
    private final HealthRule rule;
    private final RawFiles files;
    private final PrintStream out;
    private final String inj;
    private final long createdEpochMs = System.currentTimeMillis();
    private final ScheduledExecutorService ticker;

    private volatile long anchorMs = -1;
    private volatile long alignDelayMs;
    private volatile SecondRecorder recorder;
    private volatile String stopReason;
    private volatile long stopEpochMs = -1;
    // When the in-flight cap stopped the load: {inflight, max_inflight}, so the harness reads numbers, not the reason.
    private volatile Map<String, Object> stopInflightCap;

    // Touched only under this object's lock (ticker, finish).
    private boolean anchorMetaWritten;
    private boolean finished;
    private long totalSent;
    private long totalOk;
    private long totalKo;
    private long lastInflight;
    private int accLevel = -1;
    private int accSeconds;
    private long accOk;
    private long accKo;
    private Histogram accHist;
    private double baselineP50Ms = Double.NaN;
    private int unhealthyInARow;
    private final Map<Integer, HealthRule.Verdict> verdicts = new LinkedHashMap<>();
    private final Map<Integer, double[]> levelPercentiles = new LinkedHashMap<>();

    /** Outside Gatling (tests): the configured timeouts stand for the ones in force. */
    public RunMonitor(LoadConfig cfg, Schedule schedule, PrintStream out) {
        this(cfg, schedule, Timeouts.of(cfg), out);
    }

    public RunMonitor(LoadConfig cfg, Schedule schedule, Timeouts timeouts, PrintStream out) {
        this.cfg = cfg;
        this.schedule = schedule;
        this.timeouts = timeouts;
        this.rule = HealthRule.of(cfg);
        this.baselineP50Ms = cfg.baselineGiven() ? cfg.baselineP50Ms() : Double.NaN;
        this.out = out;
        this.inj = "inj=" + cfg.injectorIndex();
        Path dir = Path.of(cfg.outDir()).toAbsolutePath().normalize();
        this.files = new RawFiles(dir, "loadlab injector " + cfg.injectorIndex() + " of " + cfg.injectors()
                + " -> " + cfg.baseUrl() + cfg.requestPath(), createdEpochMs);
        files.writeMeta(meta("starting"));
        this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "loadlab-monitor");
            t.setDaemon(true);
            return t;
        });
    }

    public void start() {
        println(inj + " start profile=" + cfg.profile() + " levels=" + schedule.steps() + "x" + schedule.stepSeconds()
                + "s target=" + RawFiles.rate(schedule.startRps()) + ".." + RawFiles.rate(schedule.peakRps())
                + " rps warmup=" + schedule.warmupSeconds() + "s@" + RawFiles.rate(schedule.warmupRampFromRps())
                + "->" + RawFiles.rate(schedule.warmupRps())
                + " (rates of this injector) out=" + files.dir());
        ticker.scheduleAtFixedRate(this::safeTick, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
        Runtime.getRuntime().addShutdownHook(new Thread(
                () -> finish("interrupted: the JVM shut down before the run ended"), "loadlab-shutdown"));
    }

    /**
     * Every virtual user waits this long before sending. The first caller fixes it so that injection second 0
     * starts on a whole wall-clock second: every {@code seconds.csv} row then holds exactly one scheduled rate.
     */
    public long alignDelayMs(long nowMs) {
        if (anchorMs < 0) {
            synchronized (this) {
                if (anchorMs < 0) {
                    long wanted = Math.max(nowMs, cfg.startAtEpochMs());
                    long anchor = (wanted + 999) / 1000 * 1000;
                    recorder = new SecondRecorder(anchor / 1000);
                    alignDelayMs = anchor - nowMs + ALIGN_SLACK_MS;
                    anchorMs = anchor;
                }
            }
        }
        return alignDelayMs;
    }

    /** Checked before every send: once true, no request is sent any more. */
    public boolean shouldStop() {
        long inflight = recorder != null ? recorder.inflight() : 0;
        if (stopReason == null && inflight > cfg.maxInflight()) {
            Map<String, Object> cap = new LinkedHashMap<>();
            cap.put("inflight", inflight);
            cap.put("max_inflight", cfg.maxInflight());
            String reason = "inflight " + inflight + " > loadlab.maxInflight " + cfg.maxInflight();
            stop(reason, System.currentTimeMillis(), cap);
        }
        return stopReason != null;
    }

    public String stopReason() {
        return stopReason;
    }

    SecondRecorder recorder() {
        return recorder;
    }

    /** @return the send timestamp (nanoTime) to time a request that gets no response */
    public long sent() {
        recorder.sent(System.currentTimeMillis());
        return System.nanoTime();
    }

    /** @param gatlingMs Gatling's response time when a response arrived, null on timeout/connection error */
    public void completed(long sentNanos, Integer gatlingMs, boolean ok) {
        completed(sentNanos, gatlingMs, ok, null, null);
    }

    /**
     * @param status the response's status, null when none arrived (used to classify a failure)
     * @param cause why a request without a response failed ({@link FailureCauses}), null when not known
     */
    public void completed(long sentNanos, Integer gatlingMs, boolean ok, Integer status, ErrorKind cause) {
        long elapsed = Math.round((System.nanoTime() - sentNanos) / 1e6);
        long latency = gatlingMs != null ? gatlingMs : elapsed;
        ErrorKind kind = ok ? null : ErrorKind.of(status, cause, elapsed, timeouts.requestMs());
        recorder.completed(System.currentTimeMillis(), latency, ok, kind);
    }

    private void stop(String reason, long nowMs) {
        stop(reason, nowMs, null);
    }

    private synchronized void stop(String reason, long nowMs, Map<String, Object> inflightCap) {
        if (stopReason == null) {
            stopEpochMs = nowMs;
            stopInflightCap = inflightCap;
            stopReason = reason;
            println(inj + " STOP " + reason);
        }
    }

    private void safeTick() {
        try {
            tick(System.currentTimeMillis());
        } catch (Throwable t) {
            System.err.println("loadlab-monitor: " + t);
            t.printStackTrace();
        }
    }

    synchronized void tick(long nowMs) {
        if (finished || anchorMs < 0) {
            return;
        }
        if (!anchorMetaWritten) {
            anchorMetaWritten = true;
            files.writeMeta(meta("running"));
        }
        shouldStop();
        process(recorder.drainBefore(Math.floorDiv(nowMs - GRACE_MS, 1000)), nowMs);
    }

    /** Writes what is left (the current second included) and the final meta.json; later calls do nothing. */
    public void finish(String interruptReason) {
        finish(interruptReason, System.currentTimeMillis());
    }

    synchronized void finish(String interruptReason, long nowMs) {
        if (finished) {
            return;
        }
        if (interruptReason != null && anchorMs >= 0 && stopReason == null) {
            stop(interruptReason, nowMs);
        }
        if (anchorMs >= 0) {
            process(recorder.drainBefore(nowMs / 1000 + 1), nowMs);
        }
        finished = true;
        ticker.shutdown();
        files.writeMeta(meta(interruptReason != null ? "interrupted" : "finished"));
        files.close();
        println(inj + " done sent=" + totalSent + " ok=" + totalOk + " ko=" + totalKo + " inflight=" + lastInflight
                + " stopped_early=" + (stopReason != null) + (stopReason != null ? " reason=" + stopReason : ""));
    }

    private void process(List<SecondRecorder.SecondStats> seconds, long nowMs) {
        long anchorSecond = anchorMs / 1000;
        for (SecondRecorder.SecondStats s : seconds) {
            Schedule.SecondPlan plan = schedule.at(s.second() - anchorSecond);
            files.writeSecond(s, plan);
            totalSent += s.sent();
            totalOk += s.ok();
            totalKo += s.ko();
            lastInflight = s.inflight();
            Histogram all = s.okHistogram().copy();
            all.add(s.koHistogram());
            String phase = plan.level() < 0 && plan.phase().equals(Schedule.MEASURE) ? "drain" : plan.phase();
            println(inj + " phase=" + phase + " level=" + (plan.level() < 0 ? "-" : plan.level() + 1) + "/"
                    + schedule.steps() + " target=" + RawFiles.rate(plan.targetRps()) + " sent=" + s.sent() + " ok="
                    + s.ok() + " ko=" + s.ko() + " p99=" + (all.getTotalCount() > 0
                    ? all.getValueAtPercentile(99) + "ms" : "-") + " inflight=" + s.inflight());
            if (plan.level() >= 0) {
                // The health rule judges successful requests' latency only, as harness/loadlab/analysis/knee.py does.
                accumulate(plan.level(), s, s.okHistogram(), s.second() - anchorSecond, nowMs);
            }
        }
    }

    private void accumulate(int level, SecondRecorder.SecondStats s, Histogram ok, long offset, long nowMs) {
        if (level != accLevel) {
            accLevel = level;
            accSeconds = 0;
            accOk = 0;
            accKo = 0;
            accHist = SecondRecorder.newHistogram();
        }
        accSeconds++;
        accOk += s.ok();
        accKo += s.ko();
        accHist.add(ok);
        Schedule.Level l = schedule.levels().get(level);
        if (offset == l.endSecond() - 1) {
            judge(l, nowMs);
        }
    }

    private void judge(Schedule.Level l, long nowMs) {
        boolean any = accHist.getTotalCount() > 0;
        double p50 = any ? accHist.getValueAtPercentile(50) : 0;
        double p99 = any ? accHist.getValueAtPercentile(99) : 0;
        if (l.index() == 0 && !cfg.baselineGiven()) {
            baselineP50Ms = p50;
        }
        levelPercentiles.put(l.index(), new double[] {p50, p99});
        double baseline = Double.isNaN(baselineP50Ms) ? p50 : baselineP50Ms;
        HealthRule.Verdict v = rule.judge(new HealthRule.LevelStats(l.targetRps(), accSeconds, accOk, accKo, p50, p99),
                baseline);
        verdicts.put(l.index(), v);
        accLevel = -1;
        accHist = null;
        String where = "level " + (l.index() + 1) + "/" + schedule.steps() + " (target " + RawFiles.rate(l.targetRps())
                + " rps)";
        println(inj + " " + where + (v.healthy() ? " healthy" : " UNHEALTHY: " + v.reason())
                + String.format(Locale.ROOT, " ok_rps=%.1f errors=%.2f%% p50=%.0fms p99=%.0fms p99_limit=%.0fms",
                        v.okRps(), 100 * v.errorRatio(), p50, p99, v.p99LimitMs()));
        unhealthyInARow = v.healthy() ? 0 : unhealthyInARow + 1;
        // Not after the first level when it is the baseline: it is the lowest rate (cannot exhaust anything), where a
        // cold-start spike is noise. With a given baseline (a refinement pass) the first level is a rate already
        // measured healthy, and finding it unhealthy ends the pass at once. Not after the last one either: the load
        // is over anyway.
        boolean firstLevelMayStop = l.index() > 0 || cfg.baselineGiven();
        if (unhealthyInARow >= cfg.stopAfterUnhealthy() && cfg.stopOnCollapse() && firstLevelMayStop
                && l.index() < schedule.steps() - 1) {
            stop(where + " unhealthy" + (unhealthyInARow > 1 ? " (" + unhealthyInARow + " levels in a row)" : "")
                    + ": " + v.reason(), nowMs);
        }
    }

    private Map<String, Object> meta(String status) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("status", status);
        m.put("injector_index", cfg.injectorIndex());
        m.put("injectors", cfg.injectors());
        m.put("profile", cfg.profile());
        m.put("properties", properties());
        long anchor = anchorMs;
        m.put("start_epoch_ms", anchor >= 0 ? anchor : null);
        Map<String, Object> warmup = new LinkedHashMap<>();
        warmup.put("seconds", schedule.warmupSeconds());
        warmup.put("target_rps", schedule.warmupRps());
        warmup.put("start_epoch_ms", anchor >= 0 ? anchor : null);
        warmup.put("end_epoch_ms", anchor >= 0 ? anchor + schedule.warmupSeconds() * 1000L : null);
        m.put("warmup", warmup);
        m.put("measure_start_epoch_ms", anchor >= 0 ? anchor + schedule.warmupSeconds() * 1000L : null);
        m.put("levels", levels(anchor));
        m.put("stopped_early", stopReason != null);
        m.put("stop_reason", stopReason);
        m.put("stop_inflight_cap", stopInflightCap);
        m.put("stop_epoch_ms", stopEpochMs >= 0 ? stopEpochMs : null);
        Map<String, Object> totals = new LinkedHashMap<>();
        totals.put("sent", totalSent);
        totals.put("ok", totalOk);
        totals.put("ko", totalKo);
        totals.put("inflight_at_end", lastInflight);
        totals.put("late_records", recorder != null ? recorder.lateRecords() : 0);
        m.put("totals", totals);
        // The limits this injector applied, so the harness can tell its own timeouts from the service's answers.
        Map<String, Object> limits = new LinkedHashMap<>();
        limits.put("request_ms", timeouts.requestMs());
        limits.put("connect_ms", timeouts.connectMs());
        m.put("timeouts", limits);
        m.put("error_kinds", ErrorKind.ids());
        m.put("error_kind_meanings", ErrorKind.meanings());
        m.put("scenario", cfg.scenario());
        m.put("request_path", cfg.requestPath());
        m.put("written_epoch_ms", System.currentTimeMillis());
        return m;
    }

    /** The levels actually run: a level cut by an early stop ends at the stop; levels never reached are left out. */
    private List<Map<String, Object>> levels(long anchor) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (Schedule.Level l : schedule.levels()) {
            Long start = anchor >= 0 ? anchor + l.startSecond() * 1000L : null;
            Long end = anchor >= 0 ? anchor + l.endSecond() * 1000L : null;
            boolean cut = false;
            if (start != null && stopEpochMs >= 0) {
                if (start >= stopEpochMs) {
                    break;
                }
                if (end > stopEpochMs) {
                    end = stopEpochMs;
                    cut = true;
                }
            }
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("index", l.index());
            e.put("target_rps", l.targetRps());
            e.put("start_epoch_ms", start);
            e.put("end_epoch_ms", end);
            e.put("cut_short", cut);
            HealthRule.Verdict v = verdicts.get(l.index());
            if (v != null) {
                double[] pct = levelPercentiles.get(l.index());
                Map<String, Object> verdict = new LinkedHashMap<>();
                verdict.put("healthy", v.healthy());
                verdict.put("reason", v.reason());
                verdict.put("ok_rps", v.okRps());
                verdict.put("error_ratio", v.errorRatio());
                verdict.put("p50_ms", pct[0]);
                verdict.put("p99_ms", pct[1]);
                verdict.put("p99_limit_ms", v.p99LimitMs());
                e.put("verdict", verdict);
            }
            list.add(e);
        }
        return list;
    }

    private Map<String, Object> properties() {
        Map<String, Object> p = new LinkedHashMap<>();
        for (RecordComponent c : LoadConfig.class.getRecordComponents()) {
            if (c.getName().equals("effective")) {
                continue;
            }
            try {
                p.put(LoadConfig.PREFIX + c.getName(), c.getAccessor().invoke(cfg));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        return p;
    }

    private void println(String line) {
        out.println("LOADLAB " + line);
        out.flush();
    }
}
