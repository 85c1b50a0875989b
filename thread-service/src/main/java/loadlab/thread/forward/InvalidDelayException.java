package loadlab.thread.forward;

/** A bad {@code ms}; carries what the 400 problem body reports. */
class InvalidDelayException extends RuntimeException {

    private final String parameter;
    private final String value;
    private final long max;

    InvalidDelayException(String parameter, String value, long max) {
        super(describe(parameter, value, max), null, false, false);
        this.parameter = parameter;
        this.value = value;
        this.max = max;
    }

    private static String describe(String parameter, String value, long max) {
        String allowed = "an integer number of milliseconds from 0 to " + max;
        return value == null || value.isEmpty()
                ? "Query parameter '" + parameter + "' is required: " + allowed + "."
                : "Query parameter '" + parameter + "' must be " + allowed + ", got '" + value + "'.";
    }

    String parameter() {
        return parameter;
    }

    String value() {
        return value;
    }

    long max() {
        return max;
    }
}
