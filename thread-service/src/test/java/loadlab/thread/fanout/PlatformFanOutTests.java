package loadlab.thread.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;

import loadlab.thread.support.Http;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * {@link FanOutContractTests} on platform threads: the executor of {@code fanout.pool} threads (3 here), which leaves
 * a call running past its request, and bounds the calls at once whatever the request asks.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "management.server.port=0", "fanout.pool=3"})
class PlatformFanOutTests extends FanOutContractTests {

    @Override
    protected String shape() {
        return "platform-executor";
    }

    @Override
    protected Integer pool() {
        return 3;
    }

    @Override
    protected boolean cancelsCallsStillOut() {
        return false;
    }

    @Test
    void theExecutorsThreadsBoundTheCallsAtOnce() throws InterruptedException {
        stub.hold(0, 1, 2, 3, 4, 5);
        CompletableFuture<HttpResponse<String>> request =
                CompletableFuture.supplyAsync(() -> Http.get(port, "/fanout?ms=0&n=6"));
        stub.awaitHeld(3);
        // Not a measurement: time for a 4th call to reach the stand-in if the pool let it through.
        Thread.sleep(500);
        assertThat(stub.calls()).hasSize(3);
        stub.release();
        assertThat(Http.json(request.join())).containsEntry("answered", 6);
        assertThat(stub.calls()).hasSize(6);
    }
}
