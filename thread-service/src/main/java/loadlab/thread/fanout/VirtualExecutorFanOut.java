package loadlab.thread.fanout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import loadlab.thread.forward.DownstreamCall;

/**
 * virtual and virtual-limited modes' fan-out where there is no structured task scope (JDK 21, or JDK 25 run without
 * {@code --enable-preview}): a virtual thread per call from {@code newVirtualThreadPerTaskExecutor()}, one executor
 * per request, the futures taken as they complete. When the deadline passes or one call fails, the calls still out
 * are cancelled with {@code cancel(true)}: their virtual threads are interrupted, which ends the blocked HTTP call
 * (the client closes its connection), by hand here where a scope does it by leaving its block.
 */
final class VirtualExecutorFanOut implements FanOutShape {

    static final String ID = "virtual-executor";

    private final DownstreamCall downstream;

    VirtualExecutorFanOut(DownstreamCall downstream) {
        this.downstream = downstream;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public FanOutAnswer run(FanOutRequest request) {
        FanOutDeadline deadline = FanOutDeadline.startingNow(request);
        // Not try-with-resources: close() would wait for every call, also those cancelled at the deadline.
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        CompletionService<DownstreamCall.Reply> completed = new ExecutorCompletionService<>(executor);
        List<Future<DownstreamCall.Reply>> calls = new ArrayList<>(request.calls());
        try {
            for (int i = 0; i < request.calls(); i++) {
                int part = i;
                calls.add(completed.submit(() -> downstream.delay(deadline.call(part))));
            }
            for (int answered = 0; answered < request.calls(); answered++) {
                Future<DownstreamCall.Reply> call = request.hasDeadline()
                        ? completed.poll(deadline.remainingNanos(), TimeUnit.NANOSECONDS)
                        : completed.take();
                if (call == null) {
                    return FanOutAnswer.atDeadline(request, PendingParts.of(calls));
                }
                call.get();
            }
            return FanOutAnswer.complete(request);
        } catch (ExecutionException e) {
            throw CallFailure.unwrap(e);
        } catch (InterruptedException e) {
            throw CallFailure.interrupted(e);
        } finally {
            calls.forEach(call -> call.cancel(true));
            executor.shutdown();
        }
    }
}
