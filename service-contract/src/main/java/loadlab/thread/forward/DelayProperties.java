package loadlab.thread.forward;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/** {@code delay.max-ms}: the longest delay a caller may ask for. */
@ConfigurationProperties("delay")
public record DelayProperties(@DefaultValue("60000") long maxMs) {
    public DelayProperties {
        if (maxMs < 0) {
            throw new IllegalArgumentException("delay.max-ms must be >= 0, got " + maxMs);
        }
    }
}
