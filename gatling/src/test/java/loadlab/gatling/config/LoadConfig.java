package loadlab.gatling.config;

import static loadlab.gatling.config.PropertyParser.atLeast;
import static loadlab.gatling.config.PropertyParser.bool;
import static loadlab.gatling.config.PropertyParser.intIn;
import static loadlab.gatling.config.PropertyParser.nonNegative;
import static loadlab.gatling.config.PropertyParser.oneOf;
import static loadlab.gatling.config.PropertyParser.positive;
import static loadlab.gatling.config.PropertyParser.ratio;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Every {@code loadlab.*} system property, parsed and checked before Gatling starts injecting, so a typo costs a
 * one-line message instead of a half-run benchmark: which properties there are, their defaults and the checks across
 * them here; how one value is read and checked, {@link PropertyParser}.
 */
public record LoadConfig(
        String baseUrl,
        int delayMs,
        String scenario,
        int cpuMs,
        String query,
        String path,
        String profile,
        double startRps,
        double peakRps,
        int steps,
        int stepSeconds,
        int warmupSeconds,
        double warmupRps,
        int injectors,
        int injectorIndex,
        String outDir,
        int requestTimeoutMs,
        int connectTimeoutMs,
        int maxInflight,
        boolean stopOnCollapse,
        int stopAfterUnhealthy,
        double okRatio,
        double maxErrorRatio,
        double p99Factor,
        double p99SlackMs,
        double p50SlackMs,
        double settleSeconds,
        double baselineP50Ms,
        long startAtEpochMs,
        String goFile,
        int goTimeoutSeconds,
        Map<String, String> effective) {

    public static final String PREFIX = "loadlab.";

    /** Defaults let a developer run {@code gatling:test} with few arguments; the harness always passes every value. */
    static final Map<String, String> DEFAULTS = defaults();

    /**
     * The health rule's thresholds, which the early stop judges with: no default here, so the values the harness
     * passes (harness/loadlab/core/thresholds.py, the one definition) are the only ones; a run without one fails at
     * start naming it. harness/tests/data/health_cases.json holds them under these names for both test suites.
     */
    public static final List<String> REQUIRED = List.of("okRatio", "maxErrorRatio", "p99Factor", "p99SlackMs",
            "p50SlackMs", "settleSeconds");
    /** Properties another class reads and checks: {@code mix} ({@link Mix}, APP_REQUESTS resolved by the harness). */
    static final List<String> READ_ELSEWHERE = List.of("mix");

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("baseUrl", "http://127.0.0.1:8080");
        d.put("delayMs", "200");
        d.put("scenario", "http");
        d.put("cpuMs", "0");
        // The scenario's own query words after ms and cpuMs (SCENARIO=fanout: n, timeoutMs, onTimeout).
        d.put("query", "");
        d.put("path", "");
        d.put("profile", "stairs");
        d.put("startRps", "50");
        d.put("peakRps", "250");
        d.put("steps", "5");
        d.put("stepSeconds", "10");
        d.put("warmupSeconds", "5");
        d.put("warmupRps", "20");
        d.put("injectors", "1");
        d.put("injectorIndex", "0");
        d.put("outDir", "target/loadlab");
        d.put("requestTimeoutMs", "10000");
        d.put("connectTimeoutMs", "5000");
        d.put("maxInflight", "5000");
        d.put("stopOnCollapse", "true");
        d.put("stopAfterUnhealthy", "1");
        // 0: the baseline of the p99 limit is the first level's p50. A refinement pass (the harness's REFINE) runs
        // near the knee, where that would be the wrong baseline: it passes the coarse pass's instead.
        d.put("baselineP50Ms", "0");
        // 0: start on the next whole second. The harness passes one instant to every injector so that their
        // seconds line up and their per-second histograms can be merged exactly.
        d.put("startAtEpochMs", "0");
        // Empty: start at once. Else the file the harness writes the start instant into once the service is up
        // (GoSignal): the JVM boots while the service starts. No go within goTimeoutSeconds: exit, nothing sent.
        d.put("goFile", "");
        d.put("goTimeoutSeconds", "900");
        return Collections.unmodifiableMap(d);
    }

    public static LoadConfig fromSystemProperties() {
        return parse(System.getProperties());
    }

    static LoadConfig parse(Properties props) {
        Map<String, String> raw = new TreeMap<>();
        for (String name : props.stringPropertyNames()) {
            if (name.startsWith(PREFIX)) {
                raw.put(name.substring(PREFIX.length()), props.getProperty(name));
            }
        }
        return parse(raw);
    }

    /** @param raw property names without the {@code loadlab.} prefix */
    public static LoadConfig parse(Map<String, String> raw) {
        PropertyParser p = new PropertyParser(raw, DEFAULTS);
        String baseUrl = p.get("baseUrl", PropertyParser::httpBaseUrl,
                "an http:// or https:// URL with a host and no path, e.g. http://127.0.0.1:8080");
        int delayMs = p.get("delayMs", s -> intIn(s, 0, 600_000), "an integer 0..600000");
        String scenario = p.get("scenario", s -> oneOf(s, SCENARIO_PATHS.keySet().toArray(String[]::new)),
                String.join(" | ", SCENARIO_PATHS.keySet()));
        int cpuMs = p.get("cpuMs", s -> intIn(s, 0, 600_000), "an integer 0..600000");
        String query = p.get("query", PropertyParser::queryWordsOrEmpty,
                "empty or name=value words joined by &, letters and digits only");
        String path = p.get("path", PropertyParser::requestPathOrEmpty,
                "empty (the scenario's endpoint) or a path and query starting with a single /, without spaces or #");
        String profile = p.get("profile", s -> oneOf(s, "stairs", "ramp"), "stairs or ramp");
        double startRps = p.get("startRps", s -> positive(s), "a number > 0");
        double peakRps = p.get("peakRps", s -> positive(s), "a number > 0");
        int steps = p.get("steps", s -> intIn(s, 1, 10_000), "an integer 1..10000");
        int stepSeconds = p.get("stepSeconds", s -> intIn(s, 1, 86_400), "an integer 1..86400");
        int warmupSeconds = p.get("warmupSeconds", s -> intIn(s, 0, 86_400), "an integer 0..86400");
        double warmupRps = p.get("warmupRps", s -> nonNegative(s), "a number >= 0");
        int injectors = p.get("injectors", s -> intIn(s, 1, 1000), "an integer 1..1000");
        int injectorIndex = p.get("injectorIndex", s -> intIn(s, 0, 999), "an integer 0..injectors-1");
        String outDir = p.get("outDir", s -> s.isBlank() ? null : s, "a directory path");
        int requestTimeoutMs = p.get("requestTimeoutMs", s -> intIn(s, 1, 3_600_000), "an integer 1..3600000");
        int connectTimeoutMs = p.get("connectTimeoutMs", s -> intIn(s, 1, 3_600_000), "an integer 1..3600000");
        int maxInflight = p.get("maxInflight", s -> intIn(s, 1, 10_000_000), "an integer >= 1");
        boolean stopOnCollapse = p.get("stopOnCollapse", s -> bool(s), "true or false");
        int stopAfterUnhealthy = p.get("stopAfterUnhealthy", s -> intIn(s, 1, 10_000), "an integer >= 1");
        double okRatio = p.get("okRatio", s -> ratio(s, false), "a number in (0, 1]");
        double maxErrorRatio = p.get("maxErrorRatio", s -> ratio(s, true), "a number in [0, 1]");
        double p99Factor = p.get("p99Factor", s -> atLeast(s, 1.0), "a number >= 1");
        double p99SlackMs = p.get("p99SlackMs", s -> nonNegative(s), "a number >= 0");
        double p50SlackMs = p.get("p50SlackMs", s -> nonNegative(s), "a number >= 0");
        double settleSeconds = p.get("settleSeconds", s -> nonNegative(s), "a number >= 0");
        double baselineP50Ms = p.get("baselineP50Ms", s -> nonNegative(s), "a number >= 0 (0: the first level's p50)");
        long startAtEpochMs = p.get("startAtEpochMs", PropertyParser::epochMsOrZero, "epoch milliseconds, or 0");
        String goFile = p.get("goFile", s -> s, "a file path, or empty");
        int goTimeoutSeconds = p.get("goTimeoutSeconds", s -> intIn(s, 1, 86_400), "an integer 1..86400");

        for (String name : raw.keySet()) {
            if (!DEFAULTS.containsKey(name) && !REQUIRED.contains(name) && !READ_ELSEWHERE.contains(name)) {
                List<String> known = new ArrayList<>(DEFAULTS.keySet());
                known.addAll(REQUIRED);
                known.addAll(READ_ELSEWHERE);
                p.error(PREFIX + name + "=" + raw.get(name) + ": unknown property (known: " + String.join(", ", known)
                        + ")");
            }
        }
        if (!p.hasErrors()) {
            if (peakRps < startRps) {
                p.error(PREFIX + "peakRps=" + p.raw("peakRps") + ": must be >= loadlab.startRps (" + startRps + ")");
            }
            if (scenario.equals("cpu") && cpuMs < 1) {
                p.error(PREFIX + "cpuMs=" + cpuMs + ": must be >= 1 when loadlab.scenario=cpu");
            }
            if (injectorIndex >= injectors) {
                p.error(PREFIX + "injectorIndex=" + injectorIndex + ": must be < loadlab.injectors (" + injectors
                        + ")");
            }
            // Gatling injects no user in a second whose rate rounds to 0: below one request per second per
            // injector, a level has seconds that send nothing, and its per-second counts say nothing of its rate.
            if (startRps / injectors < 1.0) {
                p.error(PREFIX + "startRps=" + p.raw("startRps") + ": must be >= 1 per injector (injectors="
                        + injectors + ")");
            }
            if (warmupSeconds > 0 && warmupRps / injectors < 1.0) {
                p.error(PREFIX + "warmupRps=" + p.raw("warmupRps")
                        + ": must be >= 1 per injector when loadlab.warmupSeconds > 0 (injectors=" + injectors + ")");
            }
        }
        p.throwIfErrors();
        return new LoadConfig(baseUrl, delayMs, scenario, cpuMs, query, path, profile, startRps, peakRps, steps,
                stepSeconds, warmupSeconds, warmupRps, injectors, injectorIndex, outDir, requestTimeoutMs,
                connectTimeoutMs, maxInflight, stopOnCollapse, stopAfterUnhealthy, okRatio, maxErrorRatio, p99Factor,
                p99SlackMs, p50SlackMs, settleSeconds, baselineP50Ms, startAtEpochMs, goFile, goTimeoutSeconds,
                p.effective());
    }

    /**
     * The same settings starting at the go file's instant (GoSignal), which meta.json then records: what was read,
     * read again with that instant.
     */
    public LoadConfig startingAt(long epochMs) {
        Map<String, String> raw = new LinkedHashMap<>(effective);
        raw.put("startAtEpochMs", Long.toString(epochMs));
        return parse(raw);
    }

    /** The thread-service endpoint of each scenario (the service's own names; `http` is /forward). */
    static final Map<String, String> SCENARIO_PATHS = Map.of("http", "/forward", "db", "/db", "cpu", "/cpu",
            "pinned", "/pinned", "fanout", "/fanout");

    /**
     * The one request of this run: {@code loadlab.path} when given (an application under test, the harness's
     * APP_PATH), else the scenario's endpoint, e.g. {@code /db?ms=200&cpuMs=5}; /cpu waits for nothing, so it has no
     * ms.
     */
    public String requestPath() {
        if (!path.isEmpty()) {
            return path;
        }
        String endpoint = SCENARIO_PATHS.get(scenario);
        if (scenario.equals("cpu")) {
            return endpoint + "?cpuMs=" + cpuMs;
        }
        return endpoint + "?ms=" + delayMs + (cpuMs > 0 ? "&cpuMs=" + cpuMs : "")
                + (query.isEmpty() ? "" : "&" + query);
    }

    /** True when the baseline of the p99 limit was given rather than measured at the first level. */
    public boolean baselineGiven() {
        return baselineP50Ms > 0;
    }

    public boolean isRamp() {
        return profile.equals("ramp");
    }
}
