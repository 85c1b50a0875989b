package loadlab.thread;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** /db against a real PostgreSQL: a pool of one connection, so exhaustion and the pool's evidence are plain. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "management.server.port=0", "thread-mode=virtual", "spring.datasource.hikari.maximum-pool-size=1",
        "spring.datasource.hikari.connection-timeout=300", "db.query-timeout=1s" })
@DirtiesContext
class DatabaseScenarioTests {

    static final Path BIN = LocalPostgres.find();

    static LocalPostgres postgres;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) throws Exception {
        if (BIN != null) {
            postgres = LocalPostgres.start(BIN);
            registry.add("spring.datasource.url", postgres::url);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
    }

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Test
    void aQueryHoldsAConnectionForMsAndThePoolReportsItsSize() {
        assumeTrue(BIN != null, "PostgreSQL's server binaries are not installed (/usr/lib/postgresql/*/bin)");
        Map<String, Object> before = Http.json(Http.get(managementPort, "/actuator/loadlab"));
        assertThat(before).containsEntry("db_pool_max", 1);
        HttpResponse<String> response = Http.get(port, "/db?ms=20&cpuMs=1");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(Http.json(response)).containsEntry("heldMs", 20);
        Map<String, Object> after = Http.json(Http.get(managementPort, "/actuator/loadlab"));
        assertThat(after).containsEntry("db_pool_active", 0).containsEntry("db_pool_pending", 0);
        assertThat((Integer) after.get("db_pool_idle")).isGreaterThanOrEqualTo(0);
    }

    @Test
    void requestsThatFindEveryConnectionBusyGetThePoolsOwn503() {
        assumeTrue(BIN != null, "PostgreSQL's server binaries are not installed (/usr/lib/postgresql/*/bin)");
        // One connection held 800 ms; the others wait 300 ms for it and give up.
        List<CompletableFuture<HttpResponse<String>>> calls = List.of(1, 2, 3)
            .stream()
            .map(i -> CompletableFuture.supplyAsync(() -> Http.get(port, "/db?ms=800")))
            .toList();
        List<HttpResponse<String>> responses = calls.stream().map(CompletableFuture::join).toList();
        assertThat(responses).extracting(HttpResponse::statusCode).contains(200, 503);
        HttpResponse<String> exhausted = responses.stream().filter(r -> r.statusCode() == 503).findFirst().get();
        assertThat(Http.contentType(exhausted)).startsWith("application/problem+json");
        assertThat(Http.json(exhausted)).containsEntry("title", "Database pool exhausted");
    }

    @Test
    void aQueryLongerThanItsTimeoutIsA504() {
        assumeTrue(BIN != null, "PostgreSQL's server binaries are not installed (/usr/lib/postgresql/*/bin)");
        HttpResponse<String> response = Http.get(port, "/db?ms=3000");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(504);
        assertThat(Http.json(response)).containsEntry("title", "Database query timed out");
    }

    @Test
    void badMsIsAProblemBeforeAnyConnectionIsTaken() {
        HttpResponse<String> response = Http.get(port, "/db?ms=-3");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(Http.json(response)).containsEntry("parameter", "ms");
    }
}
