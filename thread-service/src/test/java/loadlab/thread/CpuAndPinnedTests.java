package loadlab.thread;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterAll;
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
        "management.server.port=0", "thread-mode=virtual", "cpu.max-ms=500" })
@DirtiesContext
class CpuAndPinnedTests {

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

    private long workMs() {
        return ((Number) Http.json(Http.get(managementPort, "/actuator/loadlab")).get("cpu_work_ms_total")).longValue();
    }

    @Test
    void cpuDoesTheAskedWorkAndCountsIt() {
        long before = workMs();
        HttpResponse<String> response = Http.get(port, "/cpu?cpuMs=5");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(Http.json(response)).containsEntry("cpuMs", 5);
        assertThat(workMs() - before).isEqualTo(5);
        Map<String, Object> sample = Http.json(Http.get(managementPort, "/actuator/loadlab"));
        assertThat(((Number) sample.get("cpu_work_calibration")).longValue()).isPositive();
        assertThat(((Number) sample.get("java_version_feature")).intValue()).isEqualTo(Runtime.version().feature());
        assertThat(((Number) sample.get("virtual_scheduler_parallelism")).intValue()).isPositive();
    }

    @ParameterizedTest
    @ValueSource(strings = { "/cpu", "/cpu?cpuMs=0", "/cpu?cpuMs=501", "/forward?ms=1&cpuMs=x",
            "/pinned?ms=1&cpuMs=-1" })
    void badCpuMsIsAProblemAndDoesNoWork(String path) {
        long before = workMs();
        int calls = stub.calls();
        HttpResponse<String> response = Http.get(port, path);
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(Http.contentType(response)).startsWith("application/problem+json");
        assertThat(Http.json(response)).containsEntry("parameter", "cpuMs").containsEntry("max", 500);
        assertThat(workMs()).isEqualTo(before);
        assertThat(stub.calls()).isEqualTo(calls);
    }

    @Test
    void forwardAddsCpuWorkBeforeItsCall() {
        long before = workMs();
        assertThat(Http.get(port, "/forward?ms=1&cpuMs=3").statusCode()).isEqualTo(200);
        assertThat(workMs() - before).isEqualTo(3);
    }

    @Test
    void pinnedRequestsEachHoldTheirOwnLockSoTheyDoNotSerialise() {
        // Eight requests of 300 ms each at once: with a shared lock they would take turns (2.4 s and more); each
        // holding its own lock they overlap. Only the overlap is asserted, with a wide margin.
        int calls = stub.calls();
        long start = System.nanoTime();
        List<CompletableFuture<HttpResponse<String>>> all = java.util.stream.IntStream.range(0, 8)
            .mapToObj(i -> CompletableFuture.supplyAsync(() -> Http.get(port, "/pinned?ms=300")))
            .toList();
        assertThat(all.stream().map(CompletableFuture::join).map(HttpResponse::statusCode)).containsOnly(200);
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(stub.calls() - calls).isEqualTo(8);
        assertThat(elapsedMs).isLessThan(8 * 300);
    }
}
