package loadlab;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The level health rule, used here only to stop a collapsing run early; the Python analysis
 * (harness/loadlab/analysis/knee.py) applies it to the merged data afterwards and stays authoritative. Both are the
 * same definition, proven by one fixture both test suites run (harness/tests/data/health_cases.json), so the early stop
 * can never end a run at a level the analysis calls healthy.
 *
 * <p>Healthy when: ok completions per second &ge; okRatio &times; target (less the requests still in flight at the
 * level's end after a step up, {@link #expectedOkRps}), ko/(ok+ko) &le; maxErrorRatio, at least
 * one ok completion, and ok p99 &le; max(p99Factor &times; baselineP50, baselineP50 + p99SlackMs), baselineP50 being
 * the ok p50 of the first measured level. Percentiles cover successful requests only (a fast error must not pass
 * for a fast answer).
 */
public record HealthRule(double okRatio, double maxErrorRatio, double p99Factor, double p99SlackMs) {

    /**
     * A level's completions, bucketed by completion second over the level's own seconds.
     *
     * @param previousTargetRps the rate offered just before the level (the previous level's, or the warm-up's for
     *        the first); NaN when unknown
     */
    public record LevelStats(double targetRps, double previousTargetRps, int seconds, long ok, long ko, double p50Ms,
            double p99Ms) {
        public double okRps() {
            return seconds > 0 ? ok / (double) seconds : 0;
        }

        public double errorRatio() {
            long done = ok + ko;
            return done > 0 ? ko / (double) done : 0;
        }
    }

    /** {@code reason} names every broken criterion, or is null when healthy. */
    public record Verdict(boolean healthy, String reason, double okRps, double errorRatio, double p99Ms,
            double p99LimitMs) {
    }

    public static HealthRule of(LoadConfig c) {
        return new HealthRule(c.okRatio(), c.maxErrorRatio(), c.p99Factor(), c.p99SlackMs());
    }

    /**
     * The ok completions per second a service keeping up at its baseline latency gives in the level's own seconds: a
     * level that stepped up still has its last baseline p50 of requests in flight at its end, while the previous
     * level's that finish in its first moments were sent at the lower rate (Little's law on the step). Never above
     * the target: a step down is not made stricter. harness/loadlab/analysis/health.py expected_answers_rps.
     */
    public double expectedOkRps(LevelStats level, double baselineP50Ms) {
        double previous = level.previousTargetRps();
        double target = level.targetRps();
        if (Double.isNaN(previous) || Double.isNaN(baselineP50Ms) || level.seconds() <= 0 || target <= previous) {
            return target;
        }
        double tailSeconds = Math.min(Math.max(0, baselineP50Ms / 1000.0), level.seconds());
        return target - (target - previous) * tailSeconds / level.seconds();
    }

    public double p99LimitMs(double baselineP50Ms) {
        return Math.max(p99Factor * baselineP50Ms, baselineP50Ms + p99SlackMs);
    }

    public Verdict judge(LevelStats level, double baselineP50Ms) {
        double limit = p99LimitMs(baselineP50Ms);
        List<String> broken = new ArrayList<>();
        double expected = expectedOkRps(level, baselineP50Ms);
        if (level.okRps() < okRatio * expected) {
            broken.add(expected < level.targetRps()
                    ? fmt("ok %.1f rps < %.2f x %.1f rps (target %.1f rps less what is still in flight at its end)",
                            level.okRps(), okRatio, expected, level.targetRps())
                    : fmt("ok %.1f rps < %.2f x target %.1f rps", level.okRps(), okRatio, level.targetRps()));
        }
        if (level.errorRatio() > maxErrorRatio) {
            broken.add(fmt("errors %.2f%% > %.2f%%", 100 * level.errorRatio(), 100 * maxErrorRatio));
        }
        if (level.ok() == 0) {
            broken.add("no successful response");
        } else if (level.p99Ms() > limit) {
            broken.add(fmt("p99 %.0f ms > %.0f ms (baseline p50 %.0f ms)", level.p99Ms(), limit, baselineP50Ms));
        }
        return new Verdict(broken.isEmpty(), broken.isEmpty() ? null : String.join("; ", broken), level.okRps(),
                level.errorRatio(), level.p99Ms(), limit);
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
