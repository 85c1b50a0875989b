package loadlab.reactive.fanout;

import loadlab.thread.fanout.FanOutContractTests;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The thread-service's {@link FanOutContractTests}, run against this service: the merged WebClient calls, whose
 * cancellation (at the deadline, or when one call failed) closes the connections of the calls still out.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "management.server.port=0")
class ReactiveFanOutTests extends FanOutContractTests {

    @Override
    protected String shape() {
        return "mono-zip";
    }
}
