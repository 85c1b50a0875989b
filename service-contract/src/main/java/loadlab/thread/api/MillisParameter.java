package loadlab.thread.api;

/**
 * A query parameter holding whole milliseconds within [min, max]: {@code ms} (the wait) and {@code cpuMs} (the
 * computation). The rules are the delay-service's, so every service answers a bad value alike.
 */
public record MillisParameter(String name, long min, long max, Long absentValue) {

    /** A required parameter. */
    public static MillisParameter required(String name, long min, long max) {
        return new MillisParameter(name, min, max, null);
    }

    /** An optional parameter that is {@code absentValue} when not given. */
    public static MillisParameter optional(String name, long min, long max, long absentValue) {
        return new MillisParameter(name, min, max, absentValue);
    }

    public long parse(String raw) {
        return new WholeNumberParameter(name, "milliseconds", min, max, absentValue).parse(raw);
    }
}
