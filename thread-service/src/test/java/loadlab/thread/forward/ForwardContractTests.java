package loadlab.thread.forward;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import loadlab.thread.support.Http;
import loadlab.thread.support.LoadlabFields;
import loadlab.thread.support.StubbedServiceTests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.TestPropertySource;

/**
 * The contract every service under test keeps, whatever serves its requests (Tomcat's platform or virtual threads,
 * or Netty's event loops in reactive-service): /forward, /cpu, /thread, their problem+json errors and
 * /actuator/loadlab on the management port. One class, run against each (PlatformModeTests, VirtualModeTests and
 * reactive-service's ReactiveContractTests through thread-service's test jar), so the services cannot drift apart.
 * A subclass names the mode it expects; one living outside {@code loadlab.thread} is found by its own package's
 * {@code @SpringBootConfiguration}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "management.server.port=0")
@TestPropertySource(properties = {"delay-service.timeout=500ms", "delay.max-ms=5000", "cpu.max-ms=500"})
public abstract class ForwardContractTests extends StubbedServiceTests {

    /** {@code thread_mode} as the service reports it: platform, virtual or reactive. */
    protected abstract String mode();

    @Test
    public void threadNamesTheModeAndWhetherTheRequestRanOnAVirtualThread() {
        HttpResponse<String> response = Http.get(port, "/thread");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(Http.json(response)).containsEntry("mode", mode())
            .containsEntry("virtual", mode().startsWith("virtual"));
        assertThat(sample()).containsEntry("thread_mode", mode());
    }

    @Test
    public void forwardAnswersWithTheDelayServiceBodyOnlyOnceTheDelayServiceAnswered() {
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
    public void badMsIsAProblemAndNeverReachesTheDelayService(String query) {
        HttpResponse<String> response = Http.get(port, "/forward" + query);
        Map<String, Object> problem = Http.problem(response, 400, "invalid-parameter");
        assertThat(problem).containsEntry("status", 400).containsEntry("parameter", "ms").containsEntry("max", 5000)
            .containsEntry("title", "Invalid query parameter");
        assertThat((String) problem.get("detail")).contains("'ms'", "0 to 5000");
        assertThat(stub.calls()).isZero();
    }

    @Test
    public void aDelayServiceThatNeverAnswersIsAGatewayTimeoutNamingTheConfiguredLimit() {
        // The stub holds the call until the next test: only the service's own limit (500 ms here; 30 s by default,
        // past this test client's 20 s patience) can end the request.
        stub.hold();
        HttpResponse<String> response = Http.get(port, "/forward?ms=4000");
        Map<String, Object> problem = Http.problem(response, 504, "delay-service-timeout");
        assertThat((String) problem.get("detail")).contains("500 ms", "delay-service.timeout");
        // Answered while the delay-service still held the call: the timeout cut it, the stub never answered.
        assertThat(stub.held()).isEqualTo(1);
    }

    @Test
    public void delayServiceErrorStatusIsABadGatewayNamingIt() {
        stub.respondWith(503);
        HttpResponse<String> response = Http.get(port, "/forward?ms=10");
        Map<String, Object> problem = Http.problem(response, 502, "delay-service-error-status");
        assertThat(problem).containsEntry("downstreamStatus", 503);
        assertThat((String) problem.get("detail")).contains("503");
    }

    @Test
    public void cpuDoesTheAskedWorkAndCountsIt() {
        long before = metric("cpu_work_ms_total");
        HttpResponse<String> response = Http.get(port, "/cpu?cpuMs=5");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(Http.json(response)).containsEntry("cpuMs", 5);
        assertThat(metric("cpu_work_ms_total") - before).isEqualTo(5);
        assertThat(metric("cpu_work_calibration")).isPositive();
    }

    @Test
    public void forwardAddsCpuWorkBeforeItsCall() {
        long before = metric("cpu_work_ms_total");
        assertThat(Http.get(port, "/forward?ms=1&cpuMs=3").statusCode()).isEqualTo(200);
        assertThat(metric("cpu_work_ms_total") - before).isEqualTo(3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/cpu", "/cpu?cpuMs=0", "/cpu?cpuMs=501", "/forward?ms=1&cpuMs=x",
        "/forward?ms=1&cpuMs=-1"})
    public void badCpuMsIsAProblemAndDoesNoWork(String path) {
        long before = metric("cpu_work_ms_total");
        HttpResponse<String> response = Http.get(port, path);
        assertThat(Http.problem(response, 400, "invalid-parameter")).containsEntry("parameter", "cpuMs")
            .containsEntry("max", 500);
        assertThat(metric("cpu_work_ms_total")).isEqualTo(before);
        assertThat(stub.calls()).isZero();
    }

    @Test
    public void loadlabEndpointOnTheManagementPortReportsEveryField() {
        Http.get(port, "/forward?ms=1");
        HttpResponse<String> response = Http.get(managementPort, "/actuator/loadlab");
        assertThat(response.statusCode()).isEqualTo(200);
        Map<String, Object> sample = Http.json(response);
        // Exactly the fields of loadlab/metrics.tsv, in its order: none missing, none unlisted.
        assertThat(sample.keySet()).containsExactly(LoadlabFields.ALL);
        assertThat(sample).containsEntry("thread_mode", mode())
            .containsEntry("java_version_feature", Runtime.version().feature())
            .containsEntry("threadlocal_kb", 0);
        assertThat(((Number) sample.get("requests_total")).longValue()).isGreaterThanOrEqualTo(1);
        assertThat(((Number) sample.get("downstream_calls_total")).longValue()).isGreaterThanOrEqualTo(1);
        assertThat(((Number) sample.get("downstream_time_ms_total")).doubleValue()).isPositive();
        assertThat(((Number) sample.get("jvm_threads_live")).intValue()).isPositive();
        assertThat(((Number) sample.get("heap_used_bytes")).longValue()).isPositive();
        assertThat(((Number) sample.get("process_cpu_seconds")).doubleValue()).isPositive();
        assertThat(((Number) sample.get("virtual_scheduler_parallelism")).intValue()).isPositive();
    }

    @Test
    public void loadlabSeesARequestWhileItIsInFlight() {
        stub.hold();
        CompletableFuture<HttpResponse<String>> held =
                CompletableFuture.supplyAsync(() -> Http.get(port, "/forward?ms=400"));
        stub.awaitHeld(1);
        // Read while the delay-service holds the request's call, so it is in flight whatever the machine's speed.
        assertThat(metric("inflight_requests")).isEqualTo(1);
        inFlight();
        stub.release();
        assertThat(held.join().statusCode()).isEqualTo(200);
    }

    /** What else this service shows while one request is in flight (Tomcat's busy thread in platform mode). */
    protected void inFlight() {
    }

    @Test
    public void managementEndpointsLiveOnTheManagementPortOnly() {
        assertThat(Http.get(managementPort, "/actuator/health").body()).contains("\"UP\"");
        assertThat(Http.get(managementPort, "/actuator/metrics/jvm.threads.live").statusCode()).isEqualTo(200);
        assertThat(Http.get(port, "/actuator/loadlab").statusCode()).isEqualTo(404);
    }
}
