package loadlab.thread.forward;

import org.springframework.stereotype.Component;

/** Parses the {@code ms} query parameter; the same rules as the delay-service's, so both answer alike. */
@Component
class DelayParameter {

    static final String NAME = "ms";

    private final long maxMs;

    DelayParameter(DelayProperties properties) {
        this.maxMs = properties.maxMs();
    }

    long parse(String raw) {
        if (raw == null || raw.isEmpty()) {
            throw new InvalidDelayException(NAME, raw, maxMs);
        }
        long value;
        try {
            value = Long.parseLong(raw);
        } catch (NumberFormatException e) {
            throw new InvalidDelayException(NAME, raw, maxMs);
        }
        if (value < 0 || value > maxMs) {
            throw new InvalidDelayException(NAME, raw, maxMs);
        }
        return value;
    }
}
