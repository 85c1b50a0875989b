package loadlab.thread;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.context.SpringBootTest;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "management.server.port=0", "delay-service.timeout=500ms", "delay.max-ms=5000"})
class PlatformModeTests extends StubbedServiceTests {

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
    void forwardAnswersWithTheDelayServiceBodyOnlyOnceTheDelayServiceAnswered() {
        stub.hold();
        CompletableFuture<HttpResponse<String>> forward =
                CompletableFuture.supplyAsync(() -> Http.get(port, "/forward?ms=50"));
        stub.awaitHeld(1);
        // The delay-service has the call and has not answered: the caller has nothing yet (the order of events,
        // not a duration; the stub answers the moment it is released).
        assertThat(forward).isNotDone();
        stub.release();
        HttpResponse<String> response = forward.join();
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(Http.contentType(response)).startsWith("application/json");
        // The delay-service's own body, which echoes the delay it was asked for.
        assertThat(response.body()).isEqualTo("{\"delayMs\":50}");
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
    void aDelayServiceThatNeverAnswersIsAGatewayTimeoutNamingTheConfiguredLimit() {
        // The stub holds the call until the next test: only the thread-service's own limit (500 ms here; 30 s by
        // default, past this test client's 20 s patience) can end the request.
        stub.hold();
        HttpResponse<String> response = Http.get(port, "/forward?ms=4000");
        Map<String, Object> problem = Http.problem(response, 504, "delay-service-timeout");
        assertThat((String) problem.get("detail")).contains("500 ms", "delay-service.timeout");
        // Answered while the delay-service still held the call: the timeout cut it, the stub never answered.
        assertThat(stub.held()).isEqualTo(1);
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
        // Exactly the fields of loadlab/metrics.tsv, in its order: none missing, none unlisted.
        assertThat(sample.keySet()).containsExactly(LoadlabFields.ALL);
        assertThat(sample).containsEntry("thread_mode", "platform").containsEntry("tomcat_threads_max", 200)
            .containsEntry("java_version_feature", Runtime.version().feature());
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
        stub.hold();
        CompletableFuture<HttpResponse<String>> held =
                CompletableFuture.supplyAsync(() -> Http.get(port, "/forward?ms=400"));
        stub.awaitHeld(1);
        // Read while the delay-service holds the request's call, so it is in flight whatever the machine's speed.
        Map<String, Object> sample = Http.json(Http.get(managementPort, "/actuator/loadlab"));
        assertThat(((Number) sample.get("inflight_requests")).intValue()).isEqualTo(1);
        assertThat(((Number) sample.get("tomcat_threads_busy")).intValue()).isGreaterThanOrEqualTo(1);
        stub.release();
        assertThat(held.join().statusCode()).isEqualTo(200);
    }

    @Test
    void managementEndpointsLiveOnTheManagementPortOnly() {
        assertThat(Http.get(managementPort, "/actuator/health").body()).contains("\"UP\"");
        assertThat(Http.get(managementPort, "/actuator/metrics/jvm.threads.live").statusCode()).isEqualTo(200);
        assertThat(Http.get(port, "/actuator/loadlab").statusCode()).isEqualTo(404);
    }
}
