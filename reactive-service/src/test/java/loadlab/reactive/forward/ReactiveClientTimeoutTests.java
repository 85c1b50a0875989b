package loadlab.reactive.forward;

import loadlab.thread.forward.ClientTimeoutContractTests;
import org.springframework.boot.test.context.SpringBootTest;

/** The thread-service's {@link ClientTimeoutContractTests} (DOWNSTREAM_TIMEOUT_MS), run against this service. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "management.server.port=0")
class ReactiveClientTimeoutTests extends ClientTimeoutContractTests {
}
