package loadlab.fanout.preview;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.StructuredTaskScope.Subtask;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;

import loadlab.thread.fanout.CallFailure;
import loadlab.thread.fanout.FanOutAnswer;
import loadlab.thread.fanout.FanOutDeadline;
import loadlab.thread.fanout.FanOutRequest;
import loadlab.thread.fanout.FanOutShape;
import loadlab.thread.forward.DownstreamCall;

/**
 * virtual and virtual-limited modes' fan-out on JDK 25: one {@link StructuredTaskScope} per request (JEP 505, a
 * preview API), a forked virtual thread per call, joined with the request's deadline as the scope's timeout. When
 * the deadline passes or one call fails, the scope is cancelled: the calls still running are interrupted, and the
 * scope's block does not end before they have (no call outlives its request).
 * <p>
 * Compiled only by the Maven profile of JDK 25 ({@code --release 25 --enable-preview}), into a package outside the
 * component-scanned {@code loadlab.thread}: Spring never reads this class file; the service loads it by name, only
 * when the JVM runs with {@code --enable-preview} (loadlab.thread.fanout.StructuredScopeLoader).
 */
public final class StructuredScopeFanOut implements FanOutShape {

    public static final String ID = "structured-scope";

    private final DownstreamCall downstream;

    public StructuredScopeFanOut(DownstreamCall downstream) {
        this.downstream = downstream;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public FanOutAnswer run(FanOutRequest request) {
        FanOutDeadline deadline = FanOutDeadline.startingNow(request);
        UnaryOperator<StructuredTaskScope.Configuration> timeout = request.hasDeadline()
                ? config -> config.withTimeout(Duration.ofMillis(request.timeoutMs()))
                : config -> config;
        List<Subtask<DownstreamCall.Reply>> calls;
        try (var scope = StructuredTaskScope.open(Joiner.<DownstreamCall.Reply>allSuccessfulOrThrow(), timeout)) {
            calls = IntStream.range(0, request.calls())
                    .mapToObj(part -> scope.fork(() -> downstream.delay(deadline.call(part))))
                    .toList();
            try {
                scope.join();
                return FanOutAnswer.complete(request);
            } catch (StructuredTaskScope.TimeoutException e) {
                // The scope is cancelled: the calls still out were interrupted. Read which before leaving it.
                return FanOutAnswer.atDeadline(request, missing(calls));
            } catch (StructuredTaskScope.FailedException e) {
                throw CallFailure.unwrap(e.getCause());
            }
        } catch (InterruptedException e) {
            throw CallFailure.interrupted(e);
        }
    }

    private static List<Integer> missing(List<Subtask<DownstreamCall.Reply>> calls) {
        return IntStream.range(0, calls.size())
                .filter(part -> calls.get(part).state() != Subtask.State.SUCCESS)
                .boxed()
                .toList();
    }
}
