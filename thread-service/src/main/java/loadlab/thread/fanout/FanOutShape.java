package loadlab.thread.fanout;

/**
 * How a mode makes a request's calls in parallel and waits for them: the platform executor's futures, a structured
 * task scope, a virtual-thread executor's futures. Public: the structured scope lives outside this package (it is
 * compiled on JDK 25 only, with its preview).
 */
public interface FanOutShape {

    /** The shape's name on /actuator/loadlab ({@code fanout_shape}). */
    String id();

    /**
     * Makes the request's calls and answers once all came back, or at its deadline
     * ({@link FanOutAnswer#atDeadline}); a call that failed fails the request with its own problem answer.
     */
    FanOutAnswer run(FanOutRequest request);
}
