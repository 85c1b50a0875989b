package loadlab.thread.api;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A bad query parameter; carries what the 400 problem body reports: the parameter, the value given and what is
 * allowed ({@code min} and {@code max} for a number, {@code allowed} for a choice).
 */
public class InvalidParameterException extends RuntimeException {

    private final String parameter;
    private final String value;
    private final Map<String, Object> limits;

    InvalidParameterException(String parameter, String value, long min, long max, String unit) {
        this(parameter, value,
                describe(parameter, value, "an integer number of " + unit + " from " + min + " to " + max),
                range(min, max));
    }

    private InvalidParameterException(String parameter, String value, String detail, Map<String, Object> limits) {
        super(detail, null, false, false);
        this.parameter = parameter;
        this.value = value;
        this.limits = limits;
    }

    /** A parameter that names one of a few values ({@code onTimeout=fail|partial}) got another. */
    public static InvalidParameterException choice(String parameter, String value, List<String> allowed) {
        return new InvalidParameterException(parameter, value,
                describe(parameter, value, "one of " + String.join(", ", allowed)), Map.of("allowed", allowed));
    }

    /** A value that is allowed only with another parameter given too ({@code onTimeout=partial} needs a deadline). */
    public static InvalidParameterException needs(String parameter, String value, String other) {
        return new InvalidParameterException(parameter, value, "Query parameter '" + parameter + "' = '" + value
                + "' needs query parameter '" + other + "' too.", Map.of("needs", other));
    }

    private static String describe(String parameter, String value, String allowed) {
        return value == null || value.isEmpty()
                ? "Query parameter '" + parameter + "' is required: " + allowed + "."
                : "Query parameter '" + parameter + "' must be " + allowed + ", got '" + value + "'.";
    }

    private static Map<String, Object> range(long min, long max) {
        Map<String, Object> range = new LinkedHashMap<>();
        range.put("min", min);
        range.put("max", max);
        return range;
    }

    public String parameter() {
        return parameter;
    }

    public String value() {
        return value;
    }

    /** What is allowed, as problem properties: {@code min} and {@code max}, or {@code allowed}, or {@code needs}. */
    public Map<String, Object> limits() {
        return limits;
    }
}
