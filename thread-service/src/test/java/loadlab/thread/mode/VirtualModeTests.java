package loadlab.thread.mode;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import loadlab.thread.forward.ForwardContractTests;
import loadlab.thread.support.Http;
import loadlab.thread.support.LoadlabFields;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/** {@link ForwardContractTests} on virtual threads, and what is particular to them. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "thread-mode=virtual", "management.server.port=0",
        "management.endpoints.web.exposure.include=health,metrics,loadlab,handlerthread"})
class VirtualModeTests extends ForwardContractTests {

    @Override
    protected String mode() {
        return "virtual";
    }

    @Test
    void requestsRunOnVirtualThreads() {
        Map<String, Object> body = Http.json(Http.get(port, "/thread"));
        assertThat(body).containsEntry("virtual", true).containsEntry("mode", "virtual");
        assertThat((String) body.get("thread")).startsWith("VirtualThread");
    }

    @Test
    void managementServerKeepsPlatformThreadsSoSamplesNeverQueueBehindRequests() {
        Map<String, Object> handler = Http.json(Http.get(managementPort, "/actuator/handlerthread"));
        assertThat(handler).containsEntry("virtual", false);
    }

    @Test
    void loadlabEndpointReportsVirtualModeWithoutAPool() {
        Map<String, Object> sample = Http.json(Http.get(managementPort, "/actuator/loadlab"));
        assertThat(sample.keySet()).containsExactly(LoadlabFields.ALL);
        assertThat(sample).containsEntry("thread_mode", "virtual")
                .containsEntry("tomcat_threads_busy", -1)
                .containsEntry("tomcat_threads_max", -1)
                .containsEntry("tomcat_queue_size", -1)
                .containsEntry("tomcat_max_connections", 8192)
                .containsEntry("threadlocal_kb", 0)
                .containsEntry("threadlocal_builds_total", 0)
                .containsEntry("downstream_concurrency_limit", -1)
                .containsEntry("downstream_rejected_total", 0)
                .containsEntry("java_version_feature", Runtime.version().feature())
                .containsEntry("virtual_scheduler_parallelism", Runtime.getRuntime().availableProcessors());
        // The scheduler's own counts exist from JDK 24 (its MXBean); on 21 they are -1, "not available here".
        int lowest = Runtime.version().feature() >= 24 ? 0 : -1;
        assertThat(((Number) sample.get("virtual_threads_mounted")).intValue()).isGreaterThanOrEqualTo(lowest);
        assertThat(((Number) sample.get("virtual_threads_queued")).longValue()).isGreaterThanOrEqualTo(lowest);
    }

    /** Reports the thread serving a management request; test-only, the product exposes nothing like it. */
    @TestConfiguration(proxyBeanMethods = false)
    static class HandlerThreadEndpointConfiguration {

        @Bean
        HandlerThreadEndpoint handlerThreadEndpoint() {
            return new HandlerThreadEndpoint();
        }
    }

    @Endpoint(id = "handlerthread")
    static class HandlerThreadEndpoint {

        @ReadOperation
        Map<String, Object> read() {
            return Map.of("virtual", Thread.currentThread().isVirtual(), "thread", Thread.currentThread().toString());
        }
    }
}
