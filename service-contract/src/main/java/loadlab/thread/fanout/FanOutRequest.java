package loadlab.thread.fanout;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One validated /fanout request: {@code calls} calls of {@code ms} each, in parallel, and what to answer when its
 * deadline ({@code timeoutMs}, {@link #NO_DEADLINE} where none) passes with calls still out. Public: the reactive
 * service answers the same requests.
 */
public record FanOutRequest(long ms, int calls, long timeoutMs, OnTimeout onTimeout) {

    /**
     * The most calls one request may make. The harness's FANOUT_MAX (harness/loadlab/core/fanout.py) is held equal to
     * it by a Python test that reads this line.
     */
    public static final int MAX_CALLS = 64;

    public static final int DEFAULT_CALLS = 4;

    public static final long NO_DEADLINE = -1;

    /** What a request whose deadline passed answers: a 504 problem, or the parts that came back (200). */
    public enum OnTimeout {
        FAIL,
        PARTIAL;

        public static final List<String> IDS = Arrays.stream(values()).map(OnTimeout::id).toList();

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public boolean hasDeadline() {
        return timeoutMs != NO_DEADLINE;
    }
}
