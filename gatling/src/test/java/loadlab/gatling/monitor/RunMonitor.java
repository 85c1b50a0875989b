package loadlab.gatling.monitor;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import loadlab.gatling.config.LoadConfig;
import loadlab.gatling.config.Mix;
import loadlab.gatling.config.Schedule;
import loadlab.gatling.health.EarlyStop;
import loadlab.gatling.health.LevelJudge;
import loadlab.gatling.recorder.ErrorKind;
import loadlab.gatling.recorder.KindOutputs;
import loadlab.gatling.recorder.RequestTimer;
import loadlab.gatling.recorder.SecondAnchor;
import loadlab.gatling.recorder.SecondRecorder;

/**
 * The simulation's side channel, the one object {@code ForwardSimulation} talks to. Each job has its own class:
 * {@link SecondAnchor} starts the seconds on a whole second, {@link RequestTimer} puts each request into its seconds,
 * and every 100 ms each completed second goes, in this order, to {@link RawOutput} (the raw files),
 * {@link ProgressLines} (the console) and {@link LevelJudge}, whose verdict at a level's end {@link EarlyStop} may
 * stop the load on. This class only runs that loop, and the end of the run.
 */
public final class RunMonitor {

    /** A second is handed out this long after it ended, so completions timed just before the boundary are in. */
    static final long GRACE_MS = 200;
    private static final long TICK_MS = 100;

    /** The injector's own limits in force, in ms (meta.json {@code timeouts}). */
    public record Timeouts(long requestMs, long connectMs) {
        static Timeouts of(LoadConfig cfg) {
            return new Timeouts(cfg.requestTimeoutMs(), cfg.connectTimeoutMs());
        }
    }

    private final LoadConfig cfg;
    private final Schedule schedule;
    private final SecondAnchor anchor;
    private final RequestTimer timer;
    private final ProgressLines progress;
    private final LevelJudge judge;
    private final EarlyStop stop;
    private final RawOutput output;
    private final KindOutputs kinds;
    private final ScheduledExecutorService ticker;

    // Touched only under this object's lock (ticker, finish).
    private boolean runningMetaWritten;
    private boolean finished;

    /** Outside Gatling (tests): the configured timeouts stand for the ones in force. */
    public RunMonitor(LoadConfig cfg, Schedule schedule, PrintStream out) {
        this(cfg, schedule, Timeouts.of(cfg), Mix.none(), out);
    }

    /** @param mix APP_REQUESTS's kinds, each also recorded on its own ({@link KindOutputs}); none: one request */
    public RunMonitor(LoadConfig cfg, Schedule schedule, Timeouts timeouts, Mix mix, PrintStream out) {
        this.cfg = cfg;
        this.schedule = schedule;
        this.anchor = new SecondAnchor(cfg.startAtEpochMs());
        this.timer = new RequestTimer(anchor, timeouts.requestMs());
        this.progress = new ProgressLines(out, cfg.injectorIndex(), schedule);
        this.judge = new LevelJudge(cfg, schedule);
        this.stop = new EarlyStop(cfg, schedule, progress::stopped);
        this.output = new RawOutput(cfg, schedule, timeouts, anchor, judge, stop);
        this.kinds = new KindOutputs(mix, output.dir(), anchor, System.currentTimeMillis());
        output.kinds(kinds.meta());
        this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "loadlab-monitor");
            t.setDaemon(true);
            return t;
        });
    }

    public void start() {
        progress.started(cfg, output.dir());
        ticker.scheduleAtFixedRate(this::safeTick, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
        Runtime.getRuntime().addShutdownHook(new Thread(
                () -> finish("interrupted: the JVM shut down before the run ended"), "loadlab-shutdown"));
    }

    /** Every virtual user waits this long before sending (see {@link SecondAnchor}). */
    public long alignDelayMs(long nowMs) {
        return anchor.delayMs(nowMs);
    }

    /** Checked before every send: once true, no request is sent any more. */
    public boolean shouldStop() {
        SecondRecorder recorder = anchor.recorder();
        return stop.stopsAt(recorder != null ? recorder.inflight() : 0);
    }

    public String stopReason() {
        return stop.reason();
    }

    SecondRecorder recorder() {
        return anchor.recorder();
    }

    /** @return the send timestamp (nanoTime) to time a request that gets no response */
    public long sent() {
        return timer.sent();
    }

    /** A request of the mix's kind {@code kind} (its index in the mix) is sent. */
    public long sent(int kind) {
        kinds.sent(kind, System.currentTimeMillis());
        return timer.sent();
    }

    /** See {@link RequestTimer#completed}; also into the kind's own seconds. */
    public void completed(int kind, long sentNanos, Integer gatlingMs, boolean ok, Integer status, ErrorKind cause) {
        ErrorKind error = timer.completed(sentNanos, gatlingMs, ok, status, cause);
        long latency = gatlingMs != null ? gatlingMs : Math.round((System.nanoTime() - sentNanos) / 1e6);
        kinds.completed(kind, System.currentTimeMillis(), latency, ok, error);
    }

    /** @param gatlingMs Gatling's response time when a response arrived, null on timeout/connection error */
    public void completed(long sentNanos, Integer gatlingMs, boolean ok) {
        completed(sentNanos, gatlingMs, ok, null, null);
    }

    /** See {@link RequestTimer#completed}. */
    public void completed(long sentNanos, Integer gatlingMs, boolean ok, Integer status, ErrorKind cause) {
        timer.completed(sentNanos, gatlingMs, ok, status, cause);
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
        if (finished || !anchor.fixed()) {
            return;
        }
        if (!runningMetaWritten) {
            runningMetaWritten = true;
            output.meta("running");
        }
        shouldStop();
        long end = Math.floorDiv(nowMs - GRACE_MS, 1000);
        process(anchor.recorder().drainBefore(end), nowMs);
        kinds.drainBefore(end, schedule::at);
    }

    /** Writes what is left (the current second included) and the final meta.json; later calls do nothing. */
    public void finish(String interruptReason) {
        finish(interruptReason, System.currentTimeMillis());
    }

    synchronized void finish(String interruptReason, long nowMs) {
        if (finished) {
            return;
        }
        if (interruptReason != null && anchor.fixed() && !stop.stopped()) {
            stop.stop(interruptReason, nowMs);
        }
        if (anchor.fixed()) {
            process(anchor.recorder().drainBefore(nowMs / 1000 + 1), nowMs);
            kinds.drainBefore(nowMs / 1000 + 1, schedule::at);
        }
        finished = true;
        ticker.shutdown();
        output.meta(interruptReason != null ? "interrupted" : "finished");
        output.close();
        kinds.close();
        progress.done(output.totals(), stop.reason());
    }

    private void process(List<SecondRecorder.SecondStats> seconds, long nowMs) {
        long anchorSecond = anchor.epochSecond();
        for (SecondRecorder.SecondStats s : seconds) {
            long offset = s.second() - anchorSecond;
            Schedule.SecondPlan plan = schedule.at(offset);
            output.second(s, plan);
            progress.second(s, plan);
            if (plan.level() >= 0) {
                LevelJudge.Judged judged = judge.second(plan.level(), s, offset);
                if (judged != null) {
                    progress.verdict(judged);
                    stop.judged(judged, nowMs);
                }
            }
        }
    }
}
