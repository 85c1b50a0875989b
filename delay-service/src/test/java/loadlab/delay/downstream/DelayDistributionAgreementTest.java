package loadlab.delay.downstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.File;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The delay-service draws what the harness computes: each case of harness/tests/data/delay_distributions.json (the
 * Spring properties the harness passes, and the mean and quantiles core/downstream.py gives them, held to it by
 * harness/tests/core/test_downstream.py) drawn a million times here, its sample's mean and quantiles within a small
 * tolerance of those figures. Little's law, the timeouts and the served-delay check read the Python figures; this
 * proves the stand-in serves them.
 */
class DelayDistributionAgreementTest {

    static final File FIXTURE = new File("../harness/tests/data/delay_distributions.json");
    static final int DRAWS = 1_000_000;

    @SuppressWarnings("unchecked")
    static Stream<Map.Entry<String, Map<String, Object>>> cases() {
        Map<String, Map<String, Object>> all = JsonMapper.builder().build().readValue(FIXTURE, Map.class);
        return all.entrySet().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    @SuppressWarnings("unchecked")
    void theDrawsHaveTheHarnesssMeanAndQuantiles(Map.Entry<String, Map<String, Object>> c) {
        DelayDistribution dist = DelayDistribution.of(properties((List<String>) c.getValue().get("spring_args")));
        SplittableRandom random = new SplittableRandom(34);
        double[] draws = new double[DRAWS];
        for (int i = 0; i < DRAWS; i++) {
            draws[i] = dist.drawMs(random);
        }
        double mean = Arrays.stream(draws).average().orElseThrow();
        Arrays.sort(draws);
        double expectedMean = ((Number) c.getValue().get("mean_ms")).doubleValue();
        // A heavy tail (a recorded minute-long answer) moves a sample's mean more than its quantiles.
        assertThat(mean).as(c.getKey() + " mean").isCloseTo(expectedMean, within(0.03 * expectedMean));
        ((Map<String, Object>) c.getValue().get("quantiles_ms")).forEach((q, value) -> {
            double expected = ((Number) value).doubleValue();
            double drawn = draws[(int) Math.min(DRAWS - 1, Math.floor(Double.parseDouble(q) * DRAWS))];
            assertThat(drawn).as(c.getKey() + " quantile " + q).isCloseTo(expected, within(0.02 * expected + 0.5));
        });
    }

    /** The harness's {@code --downstream.name=value} arguments as the bound properties. */
    static DownstreamProperties properties(List<String> args) {
        Map<String, String> p = new HashMap<>();
        for (String arg : args) {
            String[] kv = arg.substring("--downstream.".length()).split("=", 2);
            p.put(kv[0], kv[1]);
        }
        return new DownstreamProperties(p.getOrDefault("dist", "constant"), number(p, "delay-ms"),
                number(p, "p99-ms"), number(p, "slow-ms"), number(p, "slow-pct"), p.getOrDefault("points", ""), 0, 0,
                "",
                "");
    }

    private static double number(Map<String, String> p, String key) {
        return Double.parseDouble(p.getOrDefault(key, "0"));
    }
}
