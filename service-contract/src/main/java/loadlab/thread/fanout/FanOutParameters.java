package loadlab.thread.fanout;

import loadlab.thread.api.InvalidParameterException;
import loadlab.thread.api.WholeNumberParameter;
import loadlab.thread.forward.DelayParameter;
import org.springframework.stereotype.Component;

/**
 * The query of /fanout, validated before any call is made: {@code ms} as /forward's, {@code n} calls (1 to
 * {@link FanOutRequest#MAX_CALLS}, default {@link FanOutRequest#DEFAULT_CALLS}), an optional deadline
 * {@code timeoutMs} and {@code onTimeout} ({@code fail} by default; {@code partial} only with a deadline, which it is
 * about). Public: the reactive service parses the same query.
 */
@Component
public class FanOutParameters {

    public static final String CALLS = "n";

    public static final String TIMEOUT = "timeoutMs";

    public static final String ON_TIMEOUT = "onTimeout";

    private static final WholeNumberParameter CALLS_RULE = new WholeNumberParameter(CALLS, "calls", 1,
            FanOutRequest.MAX_CALLS, (long) FanOutRequest.DEFAULT_CALLS);

    // Bounded so that a deadline in nanoseconds never overflows (about 24 days).
    private static final WholeNumberParameter TIMEOUT_RULE = new WholeNumberParameter(TIMEOUT, "milliseconds", 1,
            Integer.MAX_VALUE, FanOutRequest.NO_DEADLINE);

    private final DelayParameter delay;

    FanOutParameters(DelayParameter delay) {
        this.delay = delay;
    }

    public FanOutRequest parse(String ms, String calls, String timeoutMs, String onTimeout) {
        long delayMs = delay.parse(ms);
        int n = Math.toIntExact(CALLS_RULE.parse(calls));
        long timeout = TIMEOUT_RULE.parse(timeoutMs);
        FanOutRequest.OnTimeout answer = onTimeout(onTimeout);
        if (answer == FanOutRequest.OnTimeout.PARTIAL && timeout == FanOutRequest.NO_DEADLINE) {
            throw InvalidParameterException.needs(ON_TIMEOUT, onTimeout, TIMEOUT);
        }
        return new FanOutRequest(delayMs, n, timeout, answer);
    }

    private static FanOutRequest.OnTimeout onTimeout(String raw) {
        if (raw == null || raw.isEmpty()) {
            return FanOutRequest.OnTimeout.FAIL;
        }
        for (FanOutRequest.OnTimeout value : FanOutRequest.OnTimeout.values()) {
            if (value.id().equals(raw)) {
                return value;
            }
        }
        throw InvalidParameterException.choice(ON_TIMEOUT, raw, FanOutRequest.OnTimeout.IDS);
    }
}
