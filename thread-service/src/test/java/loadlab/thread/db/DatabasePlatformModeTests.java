package loadlab.thread.db;

import static org.assertj.core.api.Assertions.assertThat;

import loadlab.thread.support.Http;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/** {@link DatabaseScenarioTests} with requests on platform threads. */
@TestPropertySource(properties = "thread-mode=platform")
class DatabasePlatformModeTests extends DatabaseScenarioTests {

    @Test
    void requestsRunOnPlatformThreads() {
        assertThat(Http.json(Http.get(port, "/thread"))).containsEntry("virtual", false);
    }
}
