package loadlab.gatling.config;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Every {@code loadlab.*} system property, parsed and checked before Gatling starts injecting, so a typo costs a
 * one-line message instead of a half-run benchmark.
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
            "p50SlackMs");
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
        Parser p = new Parser(raw);
        String baseUrl = p.get("baseUrl", LoadConfig::baseUrl,
                "an http:// or https:// URL with a host and no path, e.g. http://127.0.0.1:8080");
        int delayMs = p.get("delayMs", s -> intIn(s, 0, 600_000), "an integer 0..600000");
        String scenario = p.get("scenario", s -> oneOf(s, SCENARIO_PATHS.keySet().toArray(String[]::new)),
                String.join(" | ", SCENARIO_PATHS.keySet()));
        int cpuMs = p.get("cpuMs", s -> intIn(s, 0, 600_000), "an integer 0..600000");
        String query = p.get("query", LoadConfig::queryWordsOrEmpty,
                "empty or name=value words joined by &, letters and digits only");
        String path = p.get("path", LoadConfig::requestPathOrEmpty,
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
        double baselineP50Ms = p.get("baselineP50Ms", s -> nonNegative(s), "a number >= 0 (0: the first level's p50)");
        long startAtEpochMs = p.get("startAtEpochMs", s -> {
            long v = Long.parseLong(s);
            return v >= 0 ? v : null;
        }, "epoch milliseconds, or 0");
        String goFile = p.get("goFile", s -> s, "a file path, or empty");
        int goTimeoutSeconds = p.get("goTimeoutSeconds", s -> intIn(s, 1, 86_400), "an integer 1..86400");

        for (String name : raw.keySet()) {
            if (!DEFAULTS.containsKey(name) && !REQUIRED.contains(name) && !READ_ELSEWHERE.contains(name)) {
                List<String> known = new ArrayList<>(DEFAULTS.keySet());
                known.addAll(REQUIRED);
                known.addAll(READ_ELSEWHERE);
                p.errors.add(PREFIX + name + "=" + raw.get(name) + ": unknown property (known: "
                        + String.join(", ", known) + ")");
            }
        }
        if (p.errors.isEmpty()) {
            if (peakRps < startRps) {
                p.errors.add(PREFIX + "peakRps=" + raw(raw, "peakRps") + ": must be >= loadlab.startRps ("
                        + startRps + ")");
            }
            if (scenario.equals("cpu") && cpuMs < 1) {
                p.errors.add(PREFIX + "cpuMs=" + cpuMs + ": must be >= 1 when loadlab.scenario=cpu");
            }
            if (injectorIndex >= injectors) {
                p.errors.add(PREFIX + "injectorIndex=" + injectorIndex + ": must be < loadlab.injectors ("
                        + injectors + ")");
            }
            // Gatling injects no user in a second whose rate rounds to 0: below one request per second per
            // injector, a level has seconds that send nothing, and its per-second counts say nothing of its rate.
            if (startRps / injectors < 1.0) {
                p.errors.add(PREFIX + "startRps=" + raw(raw, "startRps") + ": must be >= 1 per injector (injectors="
                        + injectors + ")");
            }
            if (warmupSeconds > 0 && warmupRps / injectors < 1.0) {
                p.errors.add(PREFIX + "warmupRps=" + raw(raw, "warmupRps")
                        + ": must be >= 1 per injector when loadlab.warmupSeconds > 0 (injectors=" + injectors + ")");
            }
        }
        if (!p.errors.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", p.errors));
        }
        return new LoadConfig(baseUrl, delayMs, scenario, cpuMs, query, path, profile, startRps, peakRps, steps,
                stepSeconds, warmupSeconds, warmupRps, injectors, injectorIndex, outDir, requestTimeoutMs,
                connectTimeoutMs, maxInflight, stopOnCollapse, stopAfterUnhealthy, okRatio, maxErrorRatio, p99Factor,
                p99SlackMs, p50SlackMs, baselineP50Ms, startAtEpochMs, goFile, goTimeoutSeconds,
                Collections.unmodifiableMap(p.effective));
    }

    /** The same settings starting at the go file's instant (GoSignal), which meta.json then records. */
    public LoadConfig startingAt(long epochMs) {
        Map<String, String> eff = new LinkedHashMap<>(effective);
        eff.put("startAtEpochMs", Long.toString(epochMs));
        return new LoadConfig(baseUrl, delayMs, scenario, cpuMs, query, path, profile, startRps, peakRps, steps,
                stepSeconds, warmupSeconds, warmupRps, injectors, injectorIndex, outDir, requestTimeoutMs,
                connectTimeoutMs, maxInflight, stopOnCollapse, stopAfterUnhealthy, okRatio, maxErrorRatio, p99Factor,
                p99SlackMs, p50SlackMs, baselineP50Ms, epochMs, goFile, goTimeoutSeconds,
                Collections.unmodifiableMap(eff));
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

    /** "" or words like {@code n=4&timeoutMs=300}: sent as they are, so nothing that needs escaping. */
    private static String queryWordsOrEmpty(String s) {
        return s.isEmpty() || s.matches("[A-Za-z0-9]+=[A-Za-z0-9]+(&[A-Za-z0-9]+=[A-Za-z0-9]+)*") ? s : null;
    }

    /** "" or a path Gatling sends as it is ('#' would start Gatling's expression language, and is never sent). */
    private static String requestPathOrEmpty(String s) {
        if (s.isEmpty()) {
            return s;
        }
        boolean ok = s.startsWith("/") && !s.startsWith("//") && s.chars().allMatch(c -> c > 32 && c < 127 && c != '#');
        return ok ? s : null;
    }

    /** True when the baseline of the p99 limit was given rather than measured at the first level. */
    public boolean baselineGiven() {
        return baselineP50Ms > 0;
    }

    public boolean isRamp() {
        return profile.equals("ramp");
    }

    private static String raw(Map<String, String> raw, String name) {
        return raw.getOrDefault(name, DEFAULTS.get(name));
    }

    /** Collects every bad value so one run reports them all. */
    private static final class Parser {
        final Map<String, String> raw;
        final Map<String, String> effective = new LinkedHashMap<>();
        final List<String> errors = new ArrayList<>();

        Parser(Map<String, String> raw) {
            this.raw = raw;
        }

        <T> T get(String name, Function<String, T> convert, String allowed) {
            String given = raw(raw, name);
            if (given == null) {
                errors.add(PREFIX + name + ": missing; a health-rule threshold has no default here (the harness "
                        + "passes harness/loadlab/core/thresholds.py's), expected " + allowed);
                return fallback(name, convert);
            }
            String value = given.trim();
            effective.put(name, value);
            T parsed;
            try {
                parsed = convert.apply(value);
            } catch (RuntimeException e) {
                parsed = null;
            }
            if (parsed == null) {
                errors.add(PREFIX + name + "=" + value + ": expected " + allowed);
                return fallback(name, convert);
            }
            return parsed;
        }

        // Keeps parsing after an error so the cross-field checks do not NPE; the result is discarded anyway. A
        // required property has no default: 1 is a valid value of each threshold and stands in for it.
        private <T> T fallback(String name, Function<String, T> convert) {
            return convert.apply(DEFAULTS.getOrDefault(name, "1"));
        }
    }

    private static String baseUrl(String s) {
        URI uri = URI.create(s);
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        boolean pathOk = uri.getRawPath() == null || uri.getRawPath().isEmpty() || uri.getRawPath().equals("/");
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || !pathOk
                || uri.getRawQuery() != null || uri.getRawFragment() != null) {
            return null;
        }
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    private static Integer intIn(String s, int min, int max) {
        int v = Integer.parseInt(s);
        return v >= min && v <= max ? v : null;
    }

    private static Double number(String s) {
        double v = Double.parseDouble(s);
        return Double.isFinite(v) ? v : null;
    }

    private static Double positive(String s) {
        Double v = number(s);
        return v != null && v > 0 ? v : null;
    }

    private static Double nonNegative(String s) {
        Double v = number(s);
        return v != null && v >= 0 ? v : null;
    }

    private static Double atLeast(String s, double min) {
        Double v = number(s);
        return v != null && v >= min ? v : null;
    }

    private static Double ratio(String s, boolean zeroAllowed) {
        Double v = number(s);
        return v != null && v <= 1 && (zeroAllowed ? v >= 0 : v > 0) ? v : null;
    }

    private static Boolean bool(String s) {
        return s.equals("true") ? Boolean.TRUE : s.equals("false") ? Boolean.FALSE : null;
    }

    private static String oneOf(String s, String... allowed) {
        for (String a : allowed) {
            if (a.equals(s)) {
                return s;
            }
        }
        return null;
    }
}
