package loadlab.gatling.monitor;

import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import loadlab.gatling.config.LoadConfig;
import loadlab.gatling.config.Schedule;
import loadlab.gatling.health.EarlyStop;
import loadlab.gatling.health.HealthRule;
import loadlab.gatling.health.LevelJudge;
import loadlab.gatling.recorder.ErrorKind;
import loadlab.gatling.recorder.KindOutputs;
import loadlab.gatling.recorder.RawFiles;
import loadlab.gatling.recorder.SecondAnchor;
import loadlab.gatling.recorder.SecondRecorder;

/**
 * This injector's raw files ({@link RawFiles}, the harness's only input): each second's lines as the second is handed
 * out, and meta.json, rewritten whole at each change of status, saying what this injector was told, where its levels
 * lay in time (cut at an early stop), their verdicts, why it stopped, its totals and the limits it applied.
 */
final class RawOutput {

    /** Every second written so far, added up; inflight at the last one. */
    record Totals(long sent, long ok, long ko, long inflightAtEnd) {
        Totals plus(SecondRecorder.SecondStats s) {
            return new Totals(sent + s.sent(), ok + s.ok(), ko + s.ko(), s.inflight());
        }
    }

    private final LoadConfig cfg;
    private final Schedule schedule;
    private final RunMonitor.Timeouts timeouts;
    private final SecondAnchor anchor;
    private final LevelJudge judge;
    private final EarlyStop stop;
    private final RawFiles files;
    // Touched by one thread at a time (RunMonitor's lock).
    private Totals totals = new Totals(0, 0, 0, 0);
    private List<Map<String, Object>> kinds = List.of();

    /** Creates the files (their headers) and the first meta.json, status {@code starting}. */
    RawOutput(LoadConfig cfg, Schedule schedule, RunMonitor.Timeouts timeouts, SecondAnchor anchor, LevelJudge judge,
            EarlyStop stop) {
        long createdEpochMs = System.currentTimeMillis();
        this.cfg = cfg;
        this.schedule = schedule;
        this.timeouts = timeouts;
        this.anchor = anchor;
        this.judge = judge;
        this.stop = stop;
        Path dir = Path.of(cfg.outDir()).toAbsolutePath().normalize();
        this.files = new RawFiles(dir, "loadlab injector " + cfg.injectorIndex() + " of " + cfg.injectors()
                + " -> " + cfg.baseUrl() + cfg.requestPath(), createdEpochMs);
        meta("starting");
    }

    Path dir() {
        return files.dir();
    }

    /** APP_REQUESTS's kinds, listed in meta.json (their own files: {@link KindOutputs}). */
    void kinds(List<Map<String, Object>> listed) {
        kinds = listed;
        meta("starting");
    }

    Totals totals() {
        return totals;
    }

    void second(SecondRecorder.SecondStats s, Schedule.SecondPlan plan) {
        files.writeSecond(s, plan);
        totals = totals.plus(s);
    }

    /** meta.json with this status: starting, running, finished or interrupted. */
    void meta(String status) {
        files.writeMeta(metaJson(status));
    }

    void close() {
        files.close();
    }

    private Map<String, Object> metaJson(String status) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("status", status);
        m.put("injector_index", cfg.injectorIndex());
        m.put("injectors", cfg.injectors());
        m.put("profile", cfg.profile());
        m.put("properties", properties());
        long start = anchor.epochMs();
        m.put("start_epoch_ms", start >= 0 ? start : null);
        Map<String, Object> warmup = new LinkedHashMap<>();
        warmup.put("seconds", schedule.warmupSeconds());
        warmup.put("target_rps", schedule.warmupRps());
        warmup.put("start_epoch_ms", start >= 0 ? start : null);
        warmup.put("end_epoch_ms", start >= 0 ? start + schedule.warmupSeconds() * 1000L : null);
        m.put("warmup", warmup);
        m.put("measure_start_epoch_ms", start >= 0 ? start + schedule.warmupSeconds() * 1000L : null);
        m.put("levels", levels(start));
        m.put("stopped_early", stop.stopped());
        m.put("stop_reason", stop.reason());
        m.put("stop_inflight_cap", stop.inflightCap());
        m.put("stop_epoch_ms", stop.epochMs() >= 0 ? stop.epochMs() : null);
        Map<String, Object> sums = new LinkedHashMap<>();
        sums.put("sent", totals.sent());
        sums.put("ok", totals.ok());
        sums.put("ko", totals.ko());
        sums.put("inflight_at_end", totals.inflightAtEnd());
        SecondRecorder recorder = anchor.recorder();
        sums.put("late_records", recorder != null ? recorder.lateRecords() : 0);
        m.put("totals", sums);
        // The limits this injector applied, so the harness can tell its own timeouts from the service's answers.
        Map<String, Object> limits = new LinkedHashMap<>();
        limits.put("request_ms", timeouts.requestMs());
        limits.put("connect_ms", timeouts.connectMs());
        m.put("timeouts", limits);
        m.put("error_kinds", ErrorKind.ids());
        m.put("error_kind_meanings", ErrorKind.meanings());
        m.put("scenario", cfg.scenario());
        m.put("request_path", cfg.requestPath());
        m.put("kinds", kinds);
        m.put("written_epoch_ms", System.currentTimeMillis());
        return m;
    }

    /** The levels actually run: a level cut by an early stop ends at the stop; levels never reached are left out. */
    private List<Map<String, Object>> levels(long anchorMs) {
        long stopMs = stop.epochMs();
        List<Map<String, Object>> list = new ArrayList<>();
        for (Schedule.Level l : schedule.levels()) {
            Long start = anchorMs >= 0 ? anchorMs + l.startSecond() * 1000L : null;
            Long end = anchorMs >= 0 ? anchorMs + l.endSecond() * 1000L : null;
            boolean cut = false;
            if (start != null && stopMs >= 0) {
                if (start >= stopMs) {
                    break;
                }
                if (end > stopMs) {
                    end = stopMs;
                    cut = true;
                }
            }
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("index", l.index());
            e.put("target_rps", l.targetRps());
            e.put("start_epoch_ms", start);
            e.put("end_epoch_ms", end);
            e.put("cut_short", cut);
            LevelJudge.Judged j = judge.judged(l.index());
            if (j != null) {
                HealthRule.Verdict v = j.verdict();
                Map<String, Object> verdict = new LinkedHashMap<>();
                verdict.put("healthy", v.healthy());
                verdict.put("reason", v.reason());
                verdict.put("ok_rps", v.okRps());
                verdict.put("error_ratio", v.errorRatio());
                verdict.put("p50_ms", j.p50Ms());
                verdict.put("p99_ms", j.p99Ms());
                verdict.put("p99_limit_ms", v.p99LimitMs());
                e.put("verdict", verdict);
            }
            list.add(e);
        }
        return list;
    }

    /** Every {@code loadlab.*} value in force, by its property name. */
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
}
