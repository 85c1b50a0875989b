package loadlab.thread.db;

import static org.assertj.core.api.Assertions.assertThat;

import loadlab.thread.support.Http;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/** {@link DatabaseScenarioTests} with requests on virtual threads. */
@TestPropertySource(properties = "thread-mode=virtual")
class DatabaseVirtualModeTests extends DatabaseScenarioTests {

    @Test
    void requestsRunOnVirtualThreads() {
        assertThat(Http.json(Http.get(port, "/thread"))).containsEntry("virtual", true);
    }
}
