package loadlab.thread.fanout;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;

import loadlab.thread.forward.DownstreamCall;

/**
 * platform mode's fan-out, as a team writes it on platform threads: a second pool beside Tomcat's, a fixed executor
 * of {@code fanout.pool} threads (its queue unbounded: a call beyond the pool waits for a thread), one
 * {@code CompletableFuture.supplyAsync} per call, joined with the request's deadline. The request thread is held
 * while it waits, and each call holds an executor thread: two Little's laws.
 * <p>
 * At the deadline the calls still out are left running (and those still queued will run): a
 * {@code CompletableFuture} has no hold on the thread that completes it, so {@code cancel(true)} could not interrupt
 * them anyway. That work, finished for a caller that has gone, is the orphaned work the scenario counts.
 */
final class PlatformExecutorFanOut implements FanOutShape, AutoCloseable {

    static final String ID = "platform-executor";

    private final ExecutorService pool;

    private final DownstreamCall downstream;

    PlatformExecutorFanOut(int threads, DownstreamCall downstream) {
        this.pool = Executors.newFixedThreadPool(threads, Thread.ofPlatform().name("fanout-", 0).factory());
        this.downstream = downstream;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public FanOutAnswer run(FanOutRequest request) {
        FanOutDeadline deadline = FanOutDeadline.startingNow(request);
        List<CompletableFuture<DownstreamCall.Reply>> calls = IntStream.range(0, request.calls())
                .mapToObj(part -> CompletableFuture.supplyAsync(() -> downstream.delay(deadline.call(part)), pool))
                .toList();
        // Done when all came back, or as soon as one failed (allOf alone would wait for the others first).
        CompletableFuture<Object> done = CompletableFuture.anyOf(
                CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)), firstFailure(calls));
        try {
            if (request.hasDeadline()) {
                done.get(deadline.remainingNanos(), TimeUnit.NANOSECONDS);
            } else {
                done.get();
            }
            return FanOutAnswer.complete(request);
        } catch (TimeoutException e) {
            return FanOutAnswer.atDeadline(request, PendingParts.of(calls));
        } catch (ExecutionException e) {
            throw CallFailure.unwrap(e);
        } catch (InterruptedException e) {
            throw CallFailure.interrupted(e);
        }
    }

    private static CompletableFuture<Void> firstFailure(List<CompletableFuture<DownstreamCall.Reply>> calls) {
        CompletableFuture<Void> failed = new CompletableFuture<>();
        calls.forEach(call -> call.whenComplete((reply, failure) -> {
            if (failure != null) {
                failed.completeExceptionally(failure);
            }
        }));
        return failed;
    }

    /** At shutdown only: the calls still running are the service's to stop then. */
    @Override
    public void close() {
        pool.shutdownNow();
    }
}
