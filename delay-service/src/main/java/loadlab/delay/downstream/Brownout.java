package loadlab.delay.downstream;

import java.util.OptionalLong;

import org.springframework.stereotype.Component;

/**
 * A brownout of the downstream: from one instant to another every answer of the drawn paths takes a fixed, longer
 * delay, and outside it the configured distribution again. The slowness belongs to the time, not to the request: a
 * request that arrives after the window (it may have waited in its caller's queue through all of it) is answered at
 * the normal delay. The harness schedules the window with absolute instants ({@link BrownoutController}), so the
 * switch happens here, on time, whatever the harness is doing then.
 */
@Component
public class Brownout {

    /** The scheduled window, epoch milliseconds [from, to), and the delay inside it. */
    public record Window(long fromEpochMs, long toEpochMs, long delayMs, long scheduledAtEpochMs) {
        public Window {
            if (fromEpochMs < 0 || toEpochMs <= fromEpochMs) {
                throw new IllegalArgumentException("a brownout window needs 0 <= from < to (epoch ms), got from="
                        + fromEpochMs + " to=" + toEpochMs);
            }
            if (delayMs < 0 || delayMs > ServedDelays.MAX_TRACKABLE_MS) {
                throw new IllegalArgumentException("a brownout's delay must be 0.." + ServedDelays.MAX_TRACKABLE_MS
                        + " ms, got " + delayMs);
            }
        }

        boolean covers(long epochMs) {
            return epochMs >= fromEpochMs && epochMs < toEpochMs;
        }
    }

    private volatile Window window;

    /** Replaces any earlier window (each mode of a run gets its own). */
    public void schedule(Window next) {
        window = next;
    }

    public Window window() {
        return window;
    }

    /** The brownout's delay for a request arriving at {@code epochMs}, or empty outside any window. */
    public OptionalLong delayMsAt(long epochMs) {
        Window w = window;
        return w != null && w.covers(epochMs) ? OptionalLong.of(w.delayMs()) : OptionalLong.empty();
    }
}
