package loadlab.thread.threadlocal;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code threadlocal.kb}: the size of the object every workload request uses from a {@code ThreadLocal} cache
 * ({@link PerThreadObject}); 0 (the default) uses none. The largest value is what one Java array can hold.
 */
@ConfigurationProperties("threadlocal")
public record ThreadLocalProperties(@DefaultValue("0") int kb) {

    /** The most KB a single {@code long[]} can hold (the array's length is an int). */
    public static final int MAX_KB = Integer.MAX_VALUE / 1024 - 1;

    public ThreadLocalProperties {
        if (kb < 0 || kb > MAX_KB) {
            throw new IllegalArgumentException(
                    "threadlocal.kb=" + kb + " is not allowed; allowed: 0.." + MAX_KB + " (KB per thread, 0: none)");
        }
    }
}
