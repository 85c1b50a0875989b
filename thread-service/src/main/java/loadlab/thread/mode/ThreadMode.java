package loadlab.thread.mode;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import org.springframework.core.env.Environment;

/**
 * Which threads Tomcat runs request handlers on; the one switch the comparison is about. {@code virtual-limited} is
 * virtual threads with the downstream call under Spring Framework 7's {@code @ConcurrencyLimit}
 * ({@code delay-service.concurrency-limit} calls at once, the rest rejected with a 503): the guard virtual threads
 * lack, since they have no pool to bound them. The harness's MODES name the same ids (its test proves it).
 */
public enum ThreadMode {
    PLATFORM,
    VIRTUAL,
    VIRTUAL_LIMITED;

    public static final String PROPERTY = "thread-mode";

    static final String ALLOWED = Arrays.stream(values()).map(ThreadMode::id).collect(Collectors.joining(", "));

    public String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether Tomcat runs request handlers on virtual threads in this mode. */
    public boolean virtualThreads() {
        return this != PLATFORM;
    }

    /** Absent means platform, so a bare {@code java -jar} behaves like a default Spring Boot app. */
    static ThreadMode parse(String raw) {
        if (raw == null) {
            return PLATFORM;
        }
        for (ThreadMode mode : values()) {
            if (mode.id().equalsIgnoreCase(raw.trim())) {
                return mode;
            }
        }
        throw new InvalidThreadModeException(raw);
    }

    /** The live mode; the environment post-processor has already normalised and validated it. */
    public static ThreadMode of(Environment environment) {
        return parse(environment.getProperty(PROPERTY));
    }
}
