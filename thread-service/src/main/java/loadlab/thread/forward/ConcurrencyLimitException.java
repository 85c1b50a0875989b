package loadlab.thread.forward;

import java.util.Map;

import loadlab.thread.api.ProblemAnswer;
import org.springframework.http.HttpStatus;

/** virtual-limited: the downstream call was refused by the concurrency limit, before it was made (503). */
class ConcurrencyLimitException extends ProblemAnswer {

    static final Problem PROBLEM = new Problem(HttpStatus.SERVICE_UNAVAILABLE, "concurrency-limit-reached",
            "Concurrency limit reached");

    private final int limit;

    ConcurrencyLimitException(int limit, Throwable cause) {
        super(PROBLEM, limit + " downstream calls were already under way (" + DownstreamCallConfiguration.LIMIT_PROPERTY
                + "): this request was shed, not queued.", cause);
        this.limit = limit;
    }

    @Override
    public Map<String, Object> properties() {
        return Map.of("limit", limit);
    }
}
