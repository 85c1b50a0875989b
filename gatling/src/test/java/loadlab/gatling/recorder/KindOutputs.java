package loadlab.gatling.recorder;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

import loadlab.gatling.config.Mix;
import loadlab.gatling.config.Schedule;

/**
 * APP_REQUESTS: each kind's own seconds, counted and timed apart from the whole ({@link SecondRecorder} per kind),
 * in {@code <outDir>/kinds/<name>/} with the same three files as the injector's ({@link RawFiles}). A kind's
 * percentiles are then read from its own histograms, never derived from the mix's. Empty without a mix.
 */
public final class KindOutputs {

    static final String FOLDER = "kinds";

    private final List<Mix.Kind> kinds;
    private final List<RawFiles> files = new ArrayList<>();
    private final SecondAnchor anchor;
    private volatile SecondRecorder[] recorders;

    public KindOutputs(Mix mix, Path outDir, SecondAnchor anchor, long createdEpochMs) {
        this.kinds = mix.kinds();
        this.anchor = anchor;
        for (Mix.Kind k : kinds) {
            files.add(new RawFiles(outDir.resolve(FOLDER).resolve(k.name()), "loadlab kind " + k.name() + " (line "
                    + k.line() + "): " + k.method() + " " + k.path(), createdEpochMs));
        }
    }

    /** Sends wait for the anchor (every user pauses on it first), so the recorders open on its second. */
    private SecondRecorder recorder(int kind) {
        SecondRecorder[] r = recorders;
        if (r == null) {
            synchronized (this) {
                if (recorders == null) {
                    SecondRecorder[] made = new SecondRecorder[kinds.size()];
                    for (int i = 0; i < made.length; i++) {
                        made[i] = new SecondRecorder(anchor.epochSecond());
                    }
                    recorders = made;
                }
                r = recorders;
            }
        }
        return r[kind];
    }

    public void sent(int kind, long epochMs) {
        if (kind >= 0) {
            recorder(kind).sent(epochMs);
        }
    }

    public void completed(int kind, long epochMs, long latencyMs, boolean ok, ErrorKind error) {
        if (kind >= 0) {
            recorder(kind).completed(epochMs, latencyMs, ok, error);
        }
    }

    /** Each kind's seconds before endSecond, written with the plan of their offset from the anchor. */
    public void drainBefore(long endSecond, LongFunction<Schedule.SecondPlan> planAtOffset) {
        SecondRecorder[] r = recorders;
        if (r == null) {
            return;
        }
        long anchorSecond = anchor.epochSecond();
        for (int i = 0; i < r.length; i++) {
            for (SecondRecorder.SecondStats s : r[i].drainBefore(endSecond)) {
                files.get(i).writeSecond(s, planAtOffset.apply(s.second() - anchorSecond));
            }
        }
    }

    public void close() {
        files.forEach(RawFiles::close);
    }

    /** meta.json's {@code kinds}: what the harness reads each kind's folder by. */
    public List<Map<String, Object>> meta() {
        List<Map<String, Object>> list = new ArrayList<>();
        for (Mix.Kind k : kinds) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", k.name());
            m.put("line", k.line());
            m.put("label", k.label());
            m.put("hundredths", k.hundredths());
            list.add(m);
        }
        return list;
    }
}
