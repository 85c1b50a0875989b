package loadlab.gatling.health;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import loadlab.gatling.config.LoadConfig;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * The level health rule, used here only to stop a collapsing run early; the Python analysis
 * (harness/loadlab/analysis/knee.py) applies it to the merged data afterwards and stays authoritative. Both are the
 * same definition, proven by one fixture both test suites run (harness/tests/data/health_cases.json), so the early stop
 * can never end a run at a level the analysis calls healthy.
 *
 * <p>Healthy when: ok completions per second &ge; okRatio &times; target (less the requests still in flight at the
 * level's end after a step up, {@link #expectedOkRps}), ko/(ok+ko) &le; maxErrorRatio, at least
 * one ok completion, ok p99 &le; max(p99Factor &times; baselineP50, baselineP50 + p99SlackMs) and ok p50 &le;
 * max(p99Factor &times; baselineP50, baselineP50 + p50SlackMs) (a tailed downstream widens only the p99's slack, so a
 * queue that doubles the median is caught while the p99 stays within a tail of seconds), baselineP50 being
 * the ok p50 of the first level that keeps up ({@link #keepsUp}, taken by {@link LevelJudge}). A level of fewer
 * than {@link #RESOLVES_P99} successful requests cannot resolve its p99 (it is its slowest answer or the one before):
 * its tail is judged on the COUNT past that limit, unhealthy only when a healthy 1% tail gives that many with a
 * chance below {@link #TAIL_ALPHA} (health.py says why these values). Percentiles cover successful requests only
 * (a fast error must not pass for a fast answer), read at the Python reader's rank (hdrh), as the analysis reads them.
 */
public record HealthRule(double okRatio, double maxErrorRatio, double p99Factor, double p99SlackMs,
        double p50SlackMs) {

    /** The share of answers a healthy p99 lets past its limit (health.py TAIL_SHARE; the shared fixture's). */
    static final double TAIL_SHARE = 0.01;
    /** From this many successful requests a p99 has a value above it; below, the count rule judges the tail. */
    static final long RESOLVES_P99 = Math.round(1 / TAIL_SHARE);
    /** The count rule's significance: health.py TAIL_ALPHA, which says why 1%. */
    static final double TAIL_ALPHA = 0.01;
    /** The share of a healthy level's answers past its median: the median's count rule tests against it. */
    static final double MEDIAN_SHARE = 0.5;
    static final String BY_P99 = "p99";
    static final String BY_COUNT = "count";

    /**
     * A level's completions, bucketed by completion second over the level's own seconds.
     *
     * @param previousTargetRps the rate offered just before the level (the previous level's, or the warm-up's for
     *        the first); NaN when unknown
     * @param settleSeconds the seconds after the level's step left out of it ({@code loadlab.settleSeconds},
     *        harness/loadlab/core/thresholds.py settle_seconds): {@code seconds} are the ones after them
     */
    public record LevelStats(double targetRps, double previousTargetRps, int seconds, long ok, long ko,
            Histogram okLatency, double settleSeconds) {
        public LevelStats(double targetRps, double previousTargetRps, int seconds, long ok, long ko,
                Histogram okLatency) {
            this(targetRps, previousTargetRps, seconds, ok, ko, okLatency, 0);
        }

        public double p50Ms() {
            return valueAtPercentile(okLatency, 50);
        }

        public double p99Ms() {
            return valueAtPercentile(okLatency, 99);
        }

        public double okRps() {
            return seconds > 0 ? ok / (double) seconds : 0;
        }

        public double errorRatio() {
            long done = ok + ko;
            return done > 0 ? ko / (double) done : 0;
        }
    }

    /**
     * {@code reason} names every broken criterion, or is null when healthy; {@code tailJudgedBy} is {@link #BY_P99}
     * or {@link #BY_COUNT} (null without a successful request), summary.json's {@code tail_judged_by}.
     */
    public record Verdict(boolean healthy, String reason, double okRps, double errorRatio, double p99Ms,
            double p99LimitMs, String tailJudgedBy) {
    }

    public static HealthRule of(LoadConfig c) {
        return new HealthRule(c.okRatio(), c.maxErrorRatio(), c.p99Factor(), c.p99SlackMs(), c.p50SlackMs());
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
        double tailSeconds = Math.min(Math.max(0, baselineP50Ms / 1000.0 - level.settleSeconds()), level.seconds());
        return target - (target - previous) * tailSeconds / level.seconds();
    }

    public double p99LimitMs(double baselineP50Ms) {
        return Math.max(p99Factor * baselineP50Ms, baselineP50Ms + p99SlackMs);
    }

    /** The median's limit: its slack is never widened for a tailed downstream (thresholds.py p50_limit_ms). */
    public double p50LimitMs(double baselineP50Ms) {
        return Math.max(p99Factor * baselineP50Ms, baselineP50Ms + p50SlackMs);
    }

    public Verdict judge(LevelStats level, double baselineP50Ms) {
        double limit = p99LimitMs(baselineP50Ms);
        List<String> broken = rateReasons(level, baselineP50Ms);
        String by = tailJudgedBy(level);
        if (by == null) {
            broken.add("no successful response");
        } else {
            String tail = tailReason(level, by, limit, baselineP50Ms);
            // a median past a limit no tighter than the p99's has its p99 past it: said once, by the p99
            double medianLimit = p50LimitMs(baselineP50Ms);
            String median = medianLimit < limit ? medianReason(level, by, medianLimit, baselineP50Ms) : null;
            for (String reason : new String[] {tail, median}) {
                if (reason != null) {
                    broken.add(reason);
                }
            }
        }
        return new Verdict(broken.isEmpty(), broken.isEmpty() ? null : String.join("; ", broken), level.okRps(),
                level.errorRatio(), level.p99Ms(), limit, by);
    }

    /**
     * Whether a level may give the baseline: it kept up with its rate and few of its requests failed, judged with its
     * own p50 for the in-flight allowance (harness/loadlab/analysis/baseline.py first_steady).
     */
    public boolean keepsUp(LevelStats level) {
        return level.okLatency().getTotalCount() > 0 && rateReasons(level, level.p50Ms()).isEmpty();
    }

    /** The criteria judged without a p99 limit, broken, in words (health.py rate_reasons). */
    private List<String> rateReasons(LevelStats level, double baselineP50Ms) {
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
        return broken;
    }

    /** {@link #BY_COUNT} when the level's successful requests are too few to resolve a p99; null without any. */
    static String tailJudgedBy(LevelStats level) {
        long n = level.okLatency().getTotalCount();
        return n == 0 ? null : n < RESOLVES_P99 ? BY_COUNT : BY_P99;
    }

    /**
     * A queue delays the median as much as the tail: under a tailed downstream the p99's limit is seconds wide and
     * only the median's catches it. Judged at the level's resolution, as the tail is (health.py median_reason).
     */
    private static String medianReason(LevelStats level, String by, double limit, double baselineP50Ms) {
        if (by.equals(BY_P99)) {
            return level.p50Ms() > limit
                    ? fmt("p50 %.0f ms > %.0f ms, the median's limit (baseline p50 %.0f ms)", level.p50Ms(), limit,
                            baselineP50Ms)
                    : null;
        }
        String past = beyondChancePast(level, limit, MEDIAN_SHARE);
        return past == null ? null : fmt(past, "the median's", "more than half, beyond chance");
    }

    private static String tailReason(LevelStats level, String by, double limit, double baselineP50Ms) {
        if (by.equals(BY_P99)) {
            return level.p99Ms() > limit
                    ? fmt("p99 %.0f ms > %.0f ms (baseline p50 %.0f ms)", level.p99Ms(), limit, baselineP50Ms)
                    : null;
        }
        String past = beyondChancePast(level, limit, TAIL_SHARE);
        return past == null ? null : fmt(past, "the", "more than a healthy 1% tail allows");
    }

    /**
     * A format of "k of n requests above %s L ms limit: %s (p = …)" when more of a count-judged level's answers are
     * past the limit than a level passing each with {@code share} gives at {@link #TAIL_ALPHA}; null within chance
     * (health.py _beyond_chance_past).
     */
    private static String beyondChancePast(LevelStats level, double limit, double share) {
        long n = level.okLatency().getTotalCount();
        long above = countAbove(level.okLatency(), limit);
        double p = binomialTail(n, above, share);
        return above > 0 && p < TAIL_ALPHA
                ? fmt("%d of %d requests above %%s %.0f ms limit: %%s (p = %.2g)", above, n, limit, p)
                : null;
    }

    /**
     * A percentile at the rank the analysis's reader (Python hdrh) takes it, {@code (long) (p * n / 100 + 0.5)}, not
     * this library's ceiling: the two differ by one rank for half of all counts (at 66 requests the p99 is the 65th
     * value there, the 66th here), and the early stop must judge the value the analysis judges. 0 when empty.
     */
    static long valueAtPercentile(Histogram h, double percentile) {
        long n = h.getTotalCount();
        long rank = Math.max(1, (long) (Math.min(percentile, 100.0) * n / 100 + 0.5));
        long seen = 0;
        for (HistogramIterationValue v : h.recordedValues()) {
            seen += v.getCountAtValueIteratedTo();
            if (seen >= rank) {
                return v.getValueIteratedTo();
            }
        }
        return 0;
    }

    /** Recorded values above ms, each bucket at its highest equivalent value (harness/…/hlog.py count_above). */
    static long countAbove(Histogram h, double ms) {
        long above = 0;
        for (HistogramIterationValue v : h.recordedValues()) {
            if (v.getValueIteratedTo() > ms) {
                above += v.getCountAtValueIteratedTo();
            }
        }
        return above;
    }

    /**
     * P(X &ge; k) for X ~ Binomial(n, share), summed exactly term by term (n is under {@link #RESOLVES_P99} here):
     * harness/loadlab/analysis/binomial.py tail_p.
     */
    static double binomialTail(long n, long k, double share) {
        if (k <= 0) {
            return 1;
        }
        double term = Math.pow(1 - share, n); // P(X = 0)
        double tail = 0;
        for (long i = 0; i <= n; i++) {
            if (i >= k) {
                tail += term;
            }
            term *= (double) (n - i) / (i + 1) * share / (1 - share);
        }
        return tail;
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
