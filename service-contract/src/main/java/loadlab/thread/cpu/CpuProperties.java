package loadlab.thread.cpu;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/** {@code cpu.max-ms}: the most computation one request may ask for with {@code cpuMs}. */
@ConfigurationProperties("cpu")
public record CpuProperties(@DefaultValue("10000") long maxMs) {
    public CpuProperties {
        if (maxMs < 1) {
            throw new IllegalArgumentException("cpu.max-ms must be >= 1, got " + maxMs);
        }
    }
}
