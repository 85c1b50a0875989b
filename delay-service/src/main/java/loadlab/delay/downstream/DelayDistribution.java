package loadlab.delay.downstream;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * The delay of one answer, drawn per request. The harness's core/downstream.py computes the same distributions'
 * mean and percentiles (Little's law, the timeouts, the served-delay check); DelayDistributionAgreementTest holds
 * the draws here to its figures (harness/tests/data/delay_distributions.json).
 */
public sealed interface DelayDistribution {

    /** The 99th percentile of the standard normal distribution: a lognormal's sigma = ln(p99 / median) / Z99. */
    double Z99 = 2.3263478740408408;

    /** {@code downstream.dist} of a constant delay: the one {@code /delay?ms=N} serves too. */
    String CONSTANT = "constant";

    double drawMs(RandomGenerator random);

    static DelayDistribution of(DownstreamProperties p) {
        return switch (p.dist()) {
            case CONSTANT -> new Constant(p.delayMs());
            case "lognormal" -> new Lognormal(p.delayMs(), p.p99Ms());
            case "bimodal" -> new Bimodal(p.delayMs(), p.slowMs(), p.slowPct());
            case "recorded" -> Recorded.parse(p.points());
            default -> throw new IllegalArgumentException(
                    "downstream.dist must be constant, lognormal, bimodal or recorded, got '" + p.dist() + "'");
        };
    }

    record Constant(double ms) implements DelayDistribution {
        public Constant {
            positive("downstream.delay-ms", ms);
        }

        @Override
        public double drawMs(RandomGenerator random) {
            return ms;
        }
    }

    /** {@code median x e^(sigma Z)}, Z standard normal. */
    record Lognormal(double medianMs, double p99Ms) implements DelayDistribution {
        public Lognormal {
            if (!(medianMs > 0 && p99Ms > medianMs)) {
                throw new IllegalArgumentException("lognormal needs 0 < downstream.delay-ms (the median) < "
                        + "downstream.p99-ms, got " + medianMs + " and " + p99Ms);
            }
        }

        double sigma() {
            return Math.log(p99Ms / medianMs) / Z99;
        }

        @Override
        public double drawMs(RandomGenerator random) {
            return medianMs * Math.exp(sigma() * random.nextGaussian());
        }
    }

    record Bimodal(double fastMs, double slowMs, double slowPct) implements DelayDistribution {
        public Bimodal {
            positive("downstream.delay-ms", fastMs);
            positive("downstream.slow-ms", slowMs);
            if (!(slowPct >= 0 && slowPct <= 100)) {
                throw new IllegalArgumentException("downstream.slow-pct must be 0..100, got " + slowPct);
            }
        }

        @Override
        public double drawMs(RandomGenerator random) {
            return random.nextDouble() * 100 < slowPct ? slowMs : fastMs;
        }
    }

    /** A recorded distribution, drawn by its inverse: linear between the recorded percentiles. */
    record Recorded(double[] quantiles, double[] valuesMs) implements DelayDistribution {

        static Recorded parse(String points) {
            String[] pairs = points.isBlank() ? new String[0] : points.split(",");
            double[] q = new double[pairs.length];
            double[] v = new double[pairs.length];
            for (int i = 0; i < pairs.length; i++) {
                String[] qv = pairs[i].split(":");
                try {
                    q[i] = Double.parseDouble(qv[0]);
                    v[i] = Double.parseDouble(qv[1]);
                } catch (RuntimeException e) {
                    throw new IllegalArgumentException("downstream.points: '" + pairs[i] + "' is not quantile:ms");
                }
            }
            return new Recorded(q, v);
        }

        public Recorded {
            if (quantiles.length < 2 || quantiles[0] != 0 || quantiles[quantiles.length - 1] != 1) {
                throw new IllegalArgumentException("downstream.points must run from quantile 0 to quantile 1, got "
                        + Arrays.toString(quantiles));
            }
            for (int i = 1; i < quantiles.length; i++) {
                if (quantiles[i] < quantiles[i - 1] || valuesMs[i] < valuesMs[i - 1] || valuesMs[i - 1] < 0) {
                    throw new IllegalArgumentException("downstream.points must ascend in quantile and in ms");
                }
            }
        }

        @Override
        public double drawMs(RandomGenerator random) {
            return at(random.nextDouble());
        }

        /** The inverse distribution at quantile u (0 <= u <= 1). */
        double at(double u) {
            // The segment [i - 1, i] holding u: i is the first point above u, kept within the table.
            int found = Arrays.binarySearch(quantiles, u);
            int i = Math.max(1, Math.min(found >= 0 ? found + 1 : -found - 1, quantiles.length - 1));
            double span = quantiles[i] - quantiles[i - 1];
            double share = span == 0 ? 1 : Math.min(1, Math.max(0, (u - quantiles[i - 1]) / span));
            return valuesMs[i - 1] + (valuesMs[i] - valuesMs[i - 1]) * share;
        }
    }

    private static void positive(String name, double ms) {
        if (!(ms >= 0)) {
            throw new IllegalArgumentException(name + " must be >= 0, got " + ms);
        }
    }
}
