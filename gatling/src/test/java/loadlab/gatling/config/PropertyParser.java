package loadlab.gatling.config;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Reads the {@code loadlab.*} values for {@link LoadConfig} one by one: each given value, else its default, trimmed,
 * converted and checked, and every bad or missing one kept as a line of its own, so one run reports them all. The
 * conversions below are the checks: each gives null for a value it does not allow.
 */
final class PropertyParser {

    private final Map<String, String> raw;
    private final Map<String, String> defaults;
    private final Map<String, String> effective = new LinkedHashMap<>();
    private final List<String> errors = new ArrayList<>();

    /** @param raw property names without the {@code loadlab.} prefix */
    PropertyParser(Map<String, String> raw, Map<String, String> defaults) {
        this.raw = raw;
        this.defaults = defaults;
    }

    /** The value given, else its default; null for a property with no default that was not given. */
    String raw(String name) {
        return raw.getOrDefault(name, defaults.get(name));
    }

    <T> T get(String name, Function<String, T> convert, String allowed) {
        String given = raw(name);
        if (given == null) {
            errors.add(LoadConfig.PREFIX + name + ": missing; a health-rule threshold has no default here (the "
                    + "harness passes harness/loadlab/core/thresholds.py's), expected " + allowed);
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
            errors.add(LoadConfig.PREFIX + name + "=" + value + ": expected " + allowed);
            return fallback(name, convert);
        }
        return parsed;
    }

    // Keeps parsing after an error so the cross-field checks do not NPE; the result is discarded anyway. A
    // required property has no default: 1 is a valid value of each threshold and stands in for it.
    private <T> T fallback(String name, Function<String, T> convert) {
        return convert.apply(defaults.getOrDefault(name, "1"));
    }

    /** A problem found across values (or a name nobody reads), as its own line. */
    void error(String line) {
        errors.add(line);
    }

    boolean hasErrors() {
        return !errors.isEmpty();
    }

    /** @throws IllegalArgumentException naming every problem, one per line, when there was any */
    void throwIfErrors() {
        if (hasErrors()) {
            throw new IllegalArgumentException(String.join("\n", errors));
        }
    }

    /** Every value read, as given (trimmed) or defaulted, in the order read. */
    Map<String, String> effective() {
        return Collections.unmodifiableMap(effective);
    }

    /** An http:// or https:// URL with a host and no path, without its trailing slash. */
    static String httpBaseUrl(String s) {
        URI uri = URI.create(s);
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        boolean pathOk = uri.getRawPath() == null || uri.getRawPath().isEmpty() || uri.getRawPath().equals("/");
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || !pathOk
                || uri.getRawQuery() != null || uri.getRawFragment() != null) {
            return null;
        }
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    /** "" or words like {@code n=4&timeoutMs=300}: sent as they are, so nothing that needs escaping. */
    static String queryWordsOrEmpty(String s) {
        return s.isEmpty() || s.matches("[A-Za-z0-9]+=[A-Za-z0-9]+(&[A-Za-z0-9]+=[A-Za-z0-9]+)*") ? s : null;
    }

    /** "" or a path Gatling sends as it is ('#' would start Gatling's expression language, and is never sent). */
    static String requestPathOrEmpty(String s) {
        if (s.isEmpty()) {
            return s;
        }
        boolean ok = s.startsWith("/") && !s.startsWith("//") && s.chars().allMatch(c -> c > 32 && c < 127 && c != '#');
        return ok ? s : null;
    }

    static Integer intIn(String s, int min, int max) {
        int v = Integer.parseInt(s);
        return v >= min && v <= max ? v : null;
    }

    static Long epochMsOrZero(String s) {
        long v = Long.parseLong(s);
        return v >= 0 ? v : null;
    }

    private static Double number(String s) {
        double v = Double.parseDouble(s);
        return Double.isFinite(v) ? v : null;
    }

    static Double positive(String s) {
        Double v = number(s);
        return v != null && v > 0 ? v : null;
    }

    static Double nonNegative(String s) {
        Double v = number(s);
        return v != null && v >= 0 ? v : null;
    }

    static Double atLeast(String s, double min) {
        Double v = number(s);
        return v != null && v >= min ? v : null;
    }

    static Double ratio(String s, boolean zeroAllowed) {
        Double v = number(s);
        return v != null && v <= 1 && (zeroAllowed ? v >= 0 : v > 0) ? v : null;
    }

    static Boolean bool(String s) {
        return s.equals("true") ? Boolean.TRUE : s.equals("false") ? Boolean.FALSE : null;
    }

    static String oneOf(String s, String... allowed) {
        for (String a : allowed) {
            if (a.equals(s)) {
                return s;
            }
        }
        return null;
    }
}
