package loadlab.thread.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import loadlab.thread.support.Http;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code GET /fanout} as a caller and the delay-service see it, in every shape (a subclass per mode and service): the
 * n calls with their parts, the deadline's header, the answers at the deadline, a bad query refused before any call,
 * and what becomes of a call still out when its request has answered: left running (platform's executor) or cancelled
 * (a scope, the virtual executor's futures, Reactor's merge), which the stand-in sees as its connection closed before
 * its answer. No duration is asserted: the stand-in holds the late calls until told, so only the deadline ends them.
 */
public abstract class FanOutContractTests extends FanOutStubbedTests {

    /** {@code fanout_shape} as the service reports it. */
    protected abstract String shape();

    /** {@code fanout_pool}: the executor's threads; null (the default) where the shape has no pool. */
    protected Integer pool() {
        return null;
    }

    /** Whether the shape cancels the calls still out when its request ends: all but platform's executor do. */
    protected boolean cancelsCallsStillOut() {
        return true;
    }

    @Test
    public void makesEveryCallWithItsPartAndNoDeadlineHeaderWithoutADeadline() {
        long before = metric("requests_total");
        HttpResponse<String> response = Http.get(port, "/fanout?ms=0&n=5");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(Http.contentType(response)).startsWith("application/json");
        assertThat(Http.json(response)).containsEntry("calls", 5).containsEntry("answered", 5)
            .containsEntry("missing", List.of());
        assertThat(stub.calls()).extracting(FanOutStub.Call::part).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
        assertThat(stub.calls()).extracting(FanOutStub.Call::callerWaitsMs).containsOnlyNulls();
        // A workload request like /forward: the per-request filters count it (WorkloadPaths).
        assertThat(metric("requests_total") - before).isEqualTo(1);
    }

    @Test
    public void fourCallsByDefault() {
        assertThat(Http.json(Http.get(port, "/fanout?ms=0"))).containsEntry("calls", 4).containsEntry("answered", 4);
        assertThat(stub.calls()).extracting(FanOutStub.Call::part).containsExactlyInAnyOrder(0, 1, 2, 3);
    }

    @Test
    public void partialAtTheDeadlineNamesTheMissingPartsAndEachCallCarriesTheWait() {
        warmUp();
        stub.hold(1, 3);
        HttpResponse<String> response = Http.get(port, "/fanout?ms=0&n=4&timeoutMs=1000&onTimeout=partial");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(Http.json(response)).containsEntry("calls", 4).containsEntry("answered", 2)
            .containsEntry("missing", List.of(1, 3));
        assertThat(stub.calls()).extracting(FanOutStub.Call::part).containsExactlyInAnyOrder(0, 1, 2, 3);
        // What the request will still wait when the call goes out: within its deadline (never above, never < 0).
        assertThat(stub.calls()).allSatisfy(call -> assertThat(Long.parseLong(call.callerWaitsMs()))
            .isBetween(0L, 1000L));
        callsStillOutAreCancelledOrLeftRunning(2, 1, 3);
    }

    @Test
    public void failAtTheDeadlineIsAGatewayTimeoutOfItsOwn() {
        warmUp();
        stub.hold(0);
        HttpResponse<String> response = Http.get(port, "/fanout?ms=0&n=2&timeoutMs=1000");
        Map<String, Object> problem = Http.problem(response, 504, "fanout-deadline");
        assertThat(problem).containsEntry("title", "Fan-out deadline passed").containsEntry("calls", 2)
            .containsEntry("answered", 1).containsEntry("timeoutMs", 1000);
        assertThat((String) problem.get("detail")).isEqualTo("1 of 2 calls answered within 1000 ms");
        callsStillOutAreCancelledOrLeftRunning(1, 0);
    }

    @Test
    public void aFailedCallFailsTheRequestAsForwardWouldWithoutWaitingForTheOthers() {
        // No deadline: only the failed call can end the request while parts 0 and 1 are held. It fails once all
        // three reached the stand-in, so the two others are out when it does.
        stub.hold(0, 1, 2);
        stub.fail(2);
        CompletableFuture<HttpResponse<String>> request =
                CompletableFuture.supplyAsync(() -> Http.get(port, "/fanout?ms=0&n=3"));
        stub.awaitHeld(3);
        stub.release(2);
        Map<String, Object> problem = Http.problem(request.join(), 502, "delay-service-error-status");
        assertThat(problem).containsEntry("downstreamStatus", 503);
        callsStillOutAreCancelledOrLeftRunning(2, 0, 1);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "n=0|n", "n=65|n", "n=x|n", "n=-1|n", "timeoutMs=0|timeoutMs", "timeoutMs=abc|timeoutMs",
        "onTimeout=partial|onTimeout", "timeoutMs=100&onTimeout=later|onTimeout", "ms=-1&n=2|ms"})
    public void aBadQueryIsAProblemBeforeAnyCall(String query, String parameter) {
        String path = "/fanout?" + (query.startsWith("ms=") ? query : "ms=0&" + query);
        Map<String, Object> problem = Http.problem(Http.get(port, path), 400, "invalid-parameter");
        assertThat(problem).containsEntry("parameter", parameter);
        assertThat(stub.calls()).isEmpty();
    }

    @Test
    public void theLimitsOfABadQueryAreInItsProblem() {
        assertThat(Http.problem(Http.get(port, "/fanout?ms=0&n=65"), 400, "invalid-parameter"))
            .containsEntry("min", 1).containsEntry("max", 64);
        assertThat(Http.problem(Http.get(port, "/fanout?ms=0&onTimeout=x"), 400, "invalid-parameter"))
            .containsEntry("allowed", List.of("fail", "partial"));
        assertThat(Http.problem(Http.get(port, "/fanout?ms=0&onTimeout=partial"), 400, "invalid-parameter"))
            .containsEntry("needs", "timeoutMs");
    }

    @Test
    public void loadlabSaysWhichShapeRan() {
        assertThat(sample()).containsEntry("fanout_shape", shape()).containsEntry("fanout_pool", pool());
    }

    /**
     * A first request, so that the deadline tests' calls reach the stand-in well within their deadline: the service's
     * client and its first connections are made here, not against the clock.
     */
    protected void warmUp() {
        assertThat(Http.get(port, "/fanout?ms=0&n=4").statusCode()).isEqualTo(200);
        stub.reset();
    }

    /**
     * After the request answered with {@code parts} still out: a cancelling shape closed their connections (each
     * within the stand-in's bound); platform's executor left them open, each answered once released, to nobody.
     */
    protected void callsStillOutAreCancelledOrLeftRunning(int count, Integer... parts) {
        if (cancelsCallsStillOut()) {
            stub.awaitClosed(count);
            for (int part : parts) {
                assertThat(stub.outcome(part)).as("part " + part).isEqualTo(FanOutStub.Outcome.CLOSED_BEFORE_ANSWER);
            }
            return;
        }
        // Not a measurement: time in which a cancelling shape would have closed them.
        sleep(500);
        for (int part : parts) {
            assertThat(stub.outcome(part)).as("part " + part).isEqualTo(FanOutStub.Outcome.HELD);
        }
        stub.release();
        waitUntilAnswered(parts);
    }

    private static void waitUntilAnswered(Integer... parts) {
        for (int tries = 0; tries < 1500; tries++) {
            if (List.of(parts).stream().allMatch(part -> stub.outcome(part) == FanOutStub.Outcome.ANSWERED)) {
                return;
            }
            sleep(20);
        }
        throw new AssertionError("parts " + List.of(parts) + " were never answered once released");
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
