package loadlab.delay.downstream;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What the stand-in serves at every path but {@code /delay?ms=N}: a delay drawn per request from a distribution, and
 * a share of failures. The harness sets every key from its parameters (DELAY_DIST, DELAY_MS, ...); a user running
 * the jar alone gets an immediate {@code {}}.
 *
 * @param dist      {@code constant} | {@code lognormal} | {@code bimodal} | {@code recorded}
 * @param delayMs   constant: the delay; lognormal: the median; bimodal: the fast answers' delay
 * @param p99Ms     lognormal: the 99th percentile (above the median)
 * @param slowMs    bimodal: the slow answers' delay
 * @param slowPct   bimodal: the share of slow answers, in percent
 * @param points    recorded: the inverse distribution as {@code quantile:ms} pairs, quantiles from 0 to 1 ascending
 *                  (the harness reads them from an HdrHistogram percentile file)
 * @param errorsPct share of answers that are a 503, in percent, after their delay
 * @param resetsPct share of connections reset instead of answered, in percent, after their delay
 * @param stubs     answers per path pattern and method ({@link Stubs}): base64 of their JSON list; empty: {@code {}}
 * @param servedLog where the delay each request was served in goes, one HdrHistogram interval per second (empty:
 *                  not recorded)
 */
@ConfigurationProperties("downstream")
public record DownstreamProperties(
        @DefaultValue("constant") String dist,
        @DefaultValue("0") double delayMs,
        @DefaultValue("0") double p99Ms,
        @DefaultValue("0") double slowMs,
        @DefaultValue("0") double slowPct,
        @DefaultValue("") String points,
        @DefaultValue("0") double errorsPct,
        @DefaultValue("0") double resetsPct,
        @DefaultValue("") String stubs,
        @DefaultValue("") String servedLog) {

    public DownstreamProperties {
        if (!(errorsPct >= 0 && resetsPct >= 0 && errorsPct + resetsPct <= 100)) {
            throw new IllegalArgumentException("downstream.errors-pct and downstream.resets-pct must be >= 0 and add "
                    + "up to at most 100, got " + errorsPct + " and " + resetsPct);
        }
    }
}
