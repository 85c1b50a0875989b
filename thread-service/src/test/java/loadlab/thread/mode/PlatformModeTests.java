package loadlab.thread.mode;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import loadlab.thread.forward.ForwardContractTests;
import loadlab.thread.support.Http;
import org.junit.jupiter.api.Test;

/** {@link ForwardContractTests} on platform threads (the default, no thread-mode given), and Tomcat's pool. */
class PlatformModeTests extends ForwardContractTests {

    @Override
    protected String mode() {
        return "platform";
    }

    @Test
    void requestsRunOnTomcatsPlatformThreadsByDefault() {
        assertThat((String) Http.json(Http.get(port, "/thread")).get("thread")).contains("http-nio")
            .doesNotContain("VirtualThread");
    }

    @Test
    void loadlabReportsTomcatsPool() {
        Map<String, Object> sample = sample();
        assertThat(sample).containsEntry("tomcat_threads_max", 200).containsEntry("tomcat_max_connections", 8192);
        assertThat(((Number) sample.get("tomcat_threads_busy")).intValue()).isBetween(0, 200);
        assertThat(((Number) sample.get("tomcat_queue_size")).intValue()).isGreaterThanOrEqualTo(0);
    }

    @Override
    protected void inFlight() {
        assertThat(metric("tomcat_threads_busy")).isGreaterThanOrEqualTo(1);
    }
}
