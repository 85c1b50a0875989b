package loadlab.thread.fanout;

import java.util.Collection;
import java.util.List;

/**
 * The 200 answer of /fanout: how many calls were made, how many came back, and the parts that did not (sorted; empty
 * unless the request's deadline passed with {@code onTimeout=partial}). Public: the reactive service's too.
 */
public record FanOutAnswer(int calls, int answered, List<Integer> missing) {

    public static FanOutAnswer complete(FanOutRequest request) {
        return new FanOutAnswer(request.calls(), request.calls(), List.of());
    }

    /**
     * What a request answers once its deadline passed with {@code missing} parts still out: those parts named, or
     * (onTimeout=fail) the 504 problem.
     */
    public static FanOutAnswer atDeadline(FanOutRequest request, Collection<Integer> missing) {
        int answered = request.calls() - missing.size();
        if (request.onTimeout() == FanOutRequest.OnTimeout.FAIL) {
            throw new FanOutDeadlineException(answered, request);
        }
        return new FanOutAnswer(request.calls(), answered, missing.stream().sorted().toList());
    }
}
