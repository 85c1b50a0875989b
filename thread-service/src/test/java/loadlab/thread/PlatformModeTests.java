package loadlab.thread;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "management.server.port=0", "delay-service.timeout=500ms", "delay.max-ms=5000"})
@DirtiesContext
class PlatformModeTests {

    static final DelayServiceStub stub = DelayServiceStub.start();

    @DynamicPropertySource
    static void downstream(DynamicPropertyRegistry registry) {
        registry.add("delay-service.url", stub::url);
    }

    @AfterAll
    static void stopStub() {
        stub.close();
    }

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @BeforeEach
    void resetStub() {
        stub.reset();
    }

    @Test
    void requestsRunOnPlatformThreadsByDefault() {
        HttpResponse<String> response = Http.get(port, "/thread");
        assertThat(response.statusCode()).isEqualTo(200);
        Map<String, Object> body = Http.json(response);
        assertThat(body).containsEntry("virtual", false).containsEntry("mode", "platform");
        assertThat((String) body.get("thread")).contains("http-nio").doesNotContain("VirtualThread");
    }

    @Test
    void forwardReturnsTheDelayServiceBodyAfterTheDelay() {
        long start = System.nanoTime();
        HttpResponse<String> response = Http.get(port, "/forward?ms=50");
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(Http.contentType(response)).startsWith("application/json");
        assertThat(response.body()).isEqualTo("{\"delayMs\":50}");
        assertThat(elapsed).isGreaterThanOrEqualTo(Duration.ofMillis(50));
        assertThat(stub.calls()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "?ms=", "?ms=abc", "?ms=-1", "?ms=5001"})
    void badMsIsAProblemAndNeverReachesTheDelayService(String query) {
        HttpResponse<String> response = Http.get(port, "/forward" + query);
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(Http.contentType(response)).startsWith("application/problem+json");
        Map<String, Object> problem = Http.json(response);
        assertThat(problem).containsEntry("status", 400).containsEntry("parameter", "ms").containsEntry("max", 5000);
        assertThat((String) problem.get("detail")).contains("'ms'", "0 to 5000");
        assertThat(stub.calls()).isZero();
    }

    @Test
    void slowDelayServiceIsAGatewayTimeoutAtTheConfiguredTimeout() {
        long start = System.nanoTime();
        HttpResponse<String> response = Http.get(port, "/forward?ms=4000");
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(Http.contentType(response)).startsWith("application/problem+json");
        assertThat((String) Http.json(response).get("detail")).contains("500 ms", "delay-service.timeout");
        // Timeout is 500 ms, the stub would answer after 4 s: anything well under 4 s proves we did not wait.
        assertThat(elapsed).isBetween(Duration.ofMillis(400), Duration.ofMillis(3000));
    }

    @Test
    void delayServiceErrorStatusIsABadGatewayNamingIt() {
        stub.respondWith(503);
        HttpResponse<String> response = Http.get(port, "/forward?ms=10");
        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(Http.contentType(response)).startsWith("application/problem+json");
        Map<String, Object> problem = Http.json(response);
        assertThat(problem).containsEntry("downstreamStatus", 503);
        assertThat((String) problem.get("detail")).contains("503");
    }

    @Test
    void loadlabEndpointOnTheManagementPortReportsEveryField() {
        Http.get(port, "/forward?ms=1");
        HttpResponse<String> response = Http.get(managementPort, "/actuator/loadlab");
        assertThat(response.statusCode()).isEqualTo(200);
        Map<String, Object> sample = Http.json(response);
        assertThat(sample).containsOnlyKeys(LoadlabFields.ALL);
        assertThat(sample).containsEntry("thread_mode", "platform").containsEntry("tomcat_threads_max", 200);
        assertThat(((Number) sample.get("requests_total")).longValue()).isGreaterThanOrEqualTo(1);
        assertThat(((Number) sample.get("downstream_calls_total")).longValue()).isGreaterThanOrEqualTo(1);
        assertThat(((Number) sample.get("downstream_time_ms_total")).doubleValue()).isPositive();
        assertThat(((Number) sample.get("tomcat_threads_busy")).intValue()).isBetween(0, 200);
        assertThat(((Number) sample.get("tomcat_queue_size")).intValue()).isGreaterThanOrEqualTo(0);
        assertThat(((Number) sample.get("jvm_threads_live")).intValue()).isPositive();
        assertThat(((Number) sample.get("heap_used_bytes")).longValue()).isPositive();
        assertThat(((Number) sample.get("process_cpu_seconds")).doubleValue()).isPositive();
    }

    @Test
    void loadlabSeesARequestWhileItIsInFlight() {
        CompletableFuture<HttpResponse<String>> slow =
                CompletableFuture.supplyAsync(() -> Http.get(port, "/forward?ms=400"));
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            Map<String, Object> sample = Http.json(Http.get(managementPort, "/actuator/loadlab"));
            assertThat(((Number) sample.get("inflight_requests")).intValue()).isEqualTo(1);
            assertThat(((Number) sample.get("tomcat_threads_busy")).intValue()).isGreaterThanOrEqualTo(1);
        });
        assertThat(slow.join().statusCode()).isEqualTo(200);
    }

    @Test
    void managementEndpointsLiveOnTheManagementPortOnly() {
        assertThat(Http.get(managementPort, "/actuator/health").body()).contains("\"UP\"");
        assertThat(Http.get(managementPort, "/actuator/metrics/jvm.threads.live").statusCode()).isEqualTo(200);
        assertThat(Http.get(port, "/actuator/loadlab").statusCode()).isEqualTo(404);
    }
}
