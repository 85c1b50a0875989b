package loadlab.thread.fanout;

import java.util.LinkedHashMap;
import java.util.Map;

import loadlab.thread.api.ProblemAnswer;
import org.springframework.http.HttpStatus;

/**
 * onTimeout=fail: the request's deadline passed before all its calls came back (504, the service's own limit, as a
 * client timeout's). Public: the reactive service fails alike.
 */
public class FanOutDeadlineException extends ProblemAnswer {

    static final Problem PROBLEM = new Problem(HttpStatus.GATEWAY_TIMEOUT, "fanout-deadline",
            "Fan-out deadline passed");

    private final int answered;

    private final FanOutRequest request;

    FanOutDeadlineException(int answered, FanOutRequest request) {
        super(PROBLEM, answered + " of " + request.calls() + " calls answered within " + request.timeoutMs() + " ms",
                null);
        this.answered = answered;
        this.request = request;
    }

    /** In the detail's order (Map.of's would change from run to run). */
    @Override
    public Map<String, Object> properties() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("calls", request.calls());
        properties.put("answered", answered);
        properties.put("timeoutMs", request.timeoutMs());
        return properties;
    }
}
