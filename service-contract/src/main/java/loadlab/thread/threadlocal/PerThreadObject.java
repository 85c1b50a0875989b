package loadlab.thread.threadlocal;

import java.util.concurrent.atomic.LongAdder;

import org.springframework.stereotype.Component;

/**
 * The ThreadLocal cache pattern many libraries and services use (a per-thread client, formatter or buffer): an
 * object costly to build, built and filled on a thread's first use, then reused by every later request on that
 * thread. A platform pool builds it once per pooled thread; with a virtual thread per request it is built on every
 * request and dropped with its thread. The builds are counted, so the harness can show which of the two happened.
 */
@Component
public class PerThreadObject {

    private final int bytes;

    private final ThreadLocal<long[]> cache = new ThreadLocal<>();

    private final LongAdder builds = new LongAdder();

    // Written on every use so the JIT must keep both the build and the read; never read for anything else.
    @SuppressWarnings("unused")
    private volatile long sink;

    PerThreadObject(ThreadLocalProperties properties) {
        this.bytes = properties.kb() * 1024;
    }

    /** The object's size in KB (0: requests use none). */
    public int kb() {
        return bytes / 1024;
    }

    /** This thread's object, built on its first use; does nothing when the size is 0. */
    public void use() {
        if (bytes == 0) {
            return;
        }
        long[] object = cache.get();
        if (object == null) {
            object = build(bytes / Long.BYTES, System.nanoTime() | 1);
            cache.set(object);
            builds.increment();
        }
        sink = object[(int) (Thread.currentThread().threadId() % object.length)];
    }

    /** Objects built since start: one per thread that used one. */
    public long builds() {
        return builds.sum();
    }

    // Filled with computed values (xorshift64), not zeros: building it costs CPU in proportion to its size, like
    // filling a real cache does, and the JIT cannot skip the writes.
    static long[] build(int longs, long seed) {
        long[] object = new long[longs];
        long x = seed;
        for (int i = 0; i < longs; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            object[i] = x;
        }
        return object;
    }
}
