package loadlab.thread.forward;

/**
 * One call to the delay-service: the {@code ms} it asks for and, in a fan-out, its part (sent as {@code part=i}, so
 * the delay-service's record tells the calls of one request apart) and how long its caller will still wait for it
 * ({@link #CALLER_WAITS_HEADER}: an answer sent later than that is work done for nobody, which the delay-service
 * counts). {@link #NONE} where there is no part or no deadline. Public: the reactive service's calls are the same.
 */
public record DelayCall(long ms, int part, long callerWaitsMs) {

    public static final String CALLER_WAITS_HEADER = "Loadlab-Caller-Waits-Ms";

    public static final int NONE = -1;

    /** The plain call of /forward, /pinned: no part, no deadline. */
    public static DelayCall of(long ms) {
        return new DelayCall(ms, NONE, NONE);
    }

    public boolean hasPart() {
        return part >= 0;
    }

    /** Whether the caller has a deadline: then the call carries the header (0 included: the caller is going). */
    public boolean hasCallerWait() {
        return callerWaitsMs >= 0;
    }
}
