package loadlab.thread.fanout;

import loadlab.thread.forward.DelayCall;

/**
 * When a fan-out request stops waiting, counted from the moment its calls start (after any {@code cpuMs}), and the
 * call each part makes: with a deadline it carries how long the request will still wait at the moment it is sent
 * (never below 0: a call sent after the request answered waits for nobody). Public: the reactive service's too.
 */
public final class FanOutDeadline {

    private final FanOutRequest request;

    private final long endNanos;

    private FanOutDeadline(FanOutRequest request, long startNanos) {
        this.request = request;
        this.endNanos = startNanos + request.timeoutMs() * 1_000_000L;
    }

    /** The deadline of a request whose calls start now. */
    public static FanOutDeadline startingNow(FanOutRequest request) {
        return new FanOutDeadline(request, System.nanoTime());
    }

    /** Nanoseconds the request will still wait; meaningful only when it has a deadline. */
    public long remainingNanos() {
        return Math.max(0, endNanos - System.nanoTime());
    }

    /** Part {@code part}'s call, as it is sent now. */
    public DelayCall call(int part) {
        long waits = request.hasDeadline() ? remainingNanos() / 1_000_000L : DelayCall.NONE;
        return new DelayCall(request.ms(), part, waits);
    }
}
