package loadlab.thread.api;

/**
 * A query parameter holding a whole number of {@code unit} within [min, max], or {@code absentValue} when not given
 * (null: required). Every such parameter answers a bad value alike, with the unit in its words.
 */
public record WholeNumberParameter(String name, String unit, long min, long max, Long absentValue) {

    public long parse(String raw) {
        if (raw == null || raw.isEmpty()) {
            if (absentValue != null) {
                return absentValue;
            }
            throw invalid(raw);
        }
        long value;
        try {
            value = Long.parseLong(raw);
        } catch (NumberFormatException e) {
            throw invalid(raw);
        }
        if (value < min || value > max) {
            throw invalid(raw);
        }
        return value;
    }

    private InvalidParameterException invalid(String raw) {
        return new InvalidParameterException(name, raw, min, max, unit);
    }
}
