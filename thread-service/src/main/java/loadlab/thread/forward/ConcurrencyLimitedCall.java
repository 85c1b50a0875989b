package loadlab.thread.forward;

import org.springframework.resilience.annotation.ConcurrencyLimit;

/**
 * virtual-limited mode's downstream call: the plain client under Spring Framework 7's own limiter. At most
 * {@code delay-service.concurrency-limit} calls run at once; one more is rejected at once
 * ({@link ConcurrencyLimit.ThrottlePolicy#REJECT}: an {@code InvocationRejectedException}, answered 503 by
 * {@link DownstreamCallConfiguration}) instead of waiting: load shed by design, the bound a platform pool gives by its
 * size, without a thread held per queued request. Spring's other policy, BLOCK, would park the caller instead, which
 * on virtual threads is the unbounded admission the limit is there to end.
 */
class ConcurrencyLimitedCall {

    private final DelayServiceClient client;

    ConcurrencyLimitedCall(DelayServiceClient client) {
        this.client = client;
    }

    @ConcurrencyLimit(limitString = "${" + DownstreamCallConfiguration.LIMIT_PROPERTY + "}",
            policy = ConcurrencyLimit.ThrottlePolicy.REJECT)
    public DownstreamCall.Reply delay(DelayCall call) {
        return client.delay(call);
    }
}
