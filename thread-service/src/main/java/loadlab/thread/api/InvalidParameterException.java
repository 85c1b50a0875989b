package loadlab.thread.api;

/** A bad query parameter; carries what the 400 problem body reports. */
public class InvalidParameterException extends RuntimeException {

    private final String parameter;
    private final String value;
    private final long min;
    private final long max;

    InvalidParameterException(String parameter, String value, long min, long max) {
        super(describe(parameter, value, min, max), null, false, false);
        this.parameter = parameter;
        this.value = value;
        this.min = min;
        this.max = max;
    }

    private static String describe(String parameter, String value, long min, long max) {
        String allowed = "an integer number of milliseconds from " + min + " to " + max;
        return value == null || value.isEmpty()
                ? "Query parameter '" + parameter + "' is required: " + allowed + "."
                : "Query parameter '" + parameter + "' must be " + allowed + ", got '" + value + "'.";
    }

    public String parameter() {
        return parameter;
    }

    public String value() {
        return value;
    }

    public long min() {
        return min;
    }

    public long max() {
        return max;
    }
}
