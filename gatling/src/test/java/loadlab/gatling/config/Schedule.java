package loadlab.gatling.config;

import java.util.ArrayList;
import java.util.List;

/**
 * This injector's share of the load, in whole seconds from the start of injection: the warm-up, then the measured
 * levels. Gatling injects users second by second from the same numbers, so the per-second plan here is what Gatling
 * actually offers (see {@code RampRateOpenInjection}: second {@code i} of a ramp gets the rate at its midpoint).
 */
public final class Schedule {

    /** A measured level (stairs) or judging window (ramp); {@code targetRps} is this injector's mean rate. */
    public record Level(int index, double targetRps, int startSecond, int seconds) {
        public int endSecond() {
            return startSecond + seconds;
        }
    }

    /** What one wall-clock second is supposed to carry. {@code level} is -1 outside the measured levels. */
    public record SecondPlan(String phase, int level, double targetRps) {
    }

    public static final String WARMUP = "warmup";
    public static final String MEASURE = "measure";
    /**
     * The warm-up climbs from this share of its rate to the full rate over its first half, then holds it. Cold JVMs
     * (three services and Gatling compiling on two cores) offered the default 300 rps from the first second built a
     * backlog of 1,000 requests that took the whole 30 s warm-up to clear and left its tail in the first level.
     */
    public static final double WARMUP_RAMP_FROM = 0.1;

    private final boolean ramp;
    private final int warmupSeconds;
    private final double warmupRps;
    private final double startRps;
    private final double peakRps;
    private final int steps;
    private final int stepSeconds;
    private final List<Level> levels;

    /** Rates are per injector here: the totals divided by the number of injectors. */
    public Schedule(boolean ramp, int warmupSeconds, double warmupRps, double startRps, double peakRps, int steps,
            int stepSeconds) {
        this.ramp = ramp;
        this.warmupSeconds = warmupSeconds;
        this.warmupRps = warmupSeconds > 0 ? warmupRps : 0;
        this.startRps = startRps;
        this.peakRps = peakRps;
        this.steps = steps;
        this.stepSeconds = stepSeconds;
        List<Level> list = new ArrayList<>(steps);
        for (int i = 0; i < steps; i++) {
            double rate = ramp ? rampRate((i + 0.5) * stepSeconds) : startRps + i * stairsIncrement();
            list.add(new Level(i, rate, warmupSeconds + i * stepSeconds, stepSeconds));
        }
        this.levels = List.copyOf(list);
    }

    public static Schedule of(LoadConfig c) {
        double n = c.injectors();
        return new Schedule(c.isRamp(), c.warmupSeconds(), c.warmupRps() / n, c.startRps() / n, c.peakRps() / n,
                c.steps(), c.stepSeconds());
    }

    public boolean ramp() {
        return ramp;
    }

    public int warmupSeconds() {
        return warmupSeconds;
    }

    /** The warm-up's first seconds, climbing from {@link #warmupRampFromRps()} to {@link #warmupRps()}. */
    public int warmupRampSeconds() {
        return warmupSeconds / 2;
    }

    public double warmupRampFromRps() {
        return warmupRps * WARMUP_RAMP_FROM;
    }

    public double warmupRps() {
        return warmupRps;
    }

    public double startRps() {
        return startRps;
    }

    public double peakRps() {
        return peakRps;
    }

    public int steps() {
        return steps;
    }

    public int stepSeconds() {
        return stepSeconds;
    }

    public List<Level> levels() {
        return levels;
    }

    /** Rate added per stairs level; levels are evenly spaced from start to peak, both included. */
    public double stairsIncrement() {
        return steps == 1 ? 0 : (peakRps - startRps) / (steps - 1);
    }

    public int measureSeconds() {
        return steps * stepSeconds;
    }

    public int totalSeconds() {
        return warmupSeconds + measureSeconds();
    }

    /** @param second whole seconds since injection started (may be past the end while requests drain) */
    public SecondPlan at(long second) {
        if (second < warmupRampSeconds()) {
            double share = (second + 0.5) / warmupRampSeconds();
            return new SecondPlan(WARMUP, -1, warmupRampFromRps() + (warmupRps - warmupRampFromRps()) * share);
        }
        if (second < warmupSeconds) {
            return new SecondPlan(WARMUP, -1, warmupRps);
        }
        long m = second - warmupSeconds;
        if (m >= measureSeconds()) {
            return new SecondPlan(MEASURE, -1, 0);
        }
        int level = (int) (m / stepSeconds);
        double rate = ramp ? rampRate(m + 0.5) : levels.get(level).targetRps();
        return new SecondPlan(MEASURE, level, rate);
    }

    private double rampRate(double secondsIntoMeasure) {
        return startRps + (peakRps - startRps) * secondsIntoMeasure / measureSeconds();
    }
}
