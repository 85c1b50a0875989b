package loadlab.gatling.recorder;

/**
 * Each request into the seconds it belongs to: its send by send second, its completion by completion second with its
 * latency (Gatling's own response time when a response arrived, else the time since it was sent) and, when it failed,
 * its {@link ErrorKind}. Called from Gatling's event loops for every request.
 */
public final class RequestTimer {

    private final SecondAnchor anchor;
    private final long requestTimeoutMs;

    /** @param requestTimeoutMs the injector's request timeout in force: a failure that lasted it is that timeout */
    public RequestTimer(SecondAnchor anchor, long requestTimeoutMs) {
        this.anchor = anchor;
        this.requestTimeoutMs = requestTimeoutMs;
    }

    /** @return the send timestamp (nanoTime) to time a request that gets no response */
    public long sent() {
        anchor.recorder().sent(System.currentTimeMillis());
        return System.nanoTime();
    }

    /**
     * @param gatlingMs Gatling's response time when a response arrived, null on timeout/connection error
     * @param status the response's status, null when none arrived (used to classify a failure)
     * @param cause why a request without a response failed (the simulation's {@code FailureCauses}), null when not
     *     known
     * @return the failure's kind, null when it succeeded
     */
    public ErrorKind completed(long sentNanos, Integer gatlingMs, boolean ok, Integer status, ErrorKind cause) {
        long elapsed = Math.round((System.nanoTime() - sentNanos) / 1e6);
        long latency = gatlingMs != null ? gatlingMs : elapsed;
        ErrorKind kind = ok ? null : ErrorKind.of(status, cause, elapsed, requestTimeoutMs);
        anchor.recorder().completed(System.currentTimeMillis(), latency, ok, kind);
        return kind;
    }
}
