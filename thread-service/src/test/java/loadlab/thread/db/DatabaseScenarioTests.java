package loadlab.thread.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import loadlab.thread.support.Http;
import loadlab.thread.support.ServiceTests;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * /db against a real PostgreSQL in both thread modes (the pool limits
 * both alike: that is the db scenario's point). A pool of one connection, so exhaustion and the pool's evidence are
 * plain. Skipped, saying why, where PostgreSQL's server is not installed. The modes: DatabasePlatformModeTests,
 * DatabaseVirtualModeTests, and reactive-service's ReactiveDatabaseTests (R2DBC) through the test jar.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "management.server.port=0", "spring.datasource.hikari.maximum-pool-size=1",
        "spring.datasource.hikari.connection-timeout=1000", "db.query-timeout=3000ms" })
public abstract class DatabaseScenarioTests extends ServiceTests {

    static final Path BIN = LocalPostgres.find();

    /**
     * One PostgreSQL for every class of the test JVM (the modes' classes each get their own Spring context and pool,
     * and the queries only sleep, so they share nothing else): started by the first, stopped when the JVM exits. A
     * cluster's initdb and start cost seconds each time.
     */
    private static LocalPostgres postgres;

    @BeforeAll
    static void requirePostgres() {
        assumeTrue(BIN != null, "PostgreSQL's server is not installed (no initdb and pg_ctl under "
                + "/usr/lib/postgresql/*/bin; harness/tests/install-test-deps.sh installs it)");
    }

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) throws Exception {
        registry.add("spring.datasource.url", shared()::url);
    }

    private static synchronized LocalPostgres shared() throws Exception {
        if (postgres == null) {
            LocalPostgres started = LocalPostgres.start(BIN);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    started.close();
                } catch (Exception e) {
                    System.err.println("could not stop the test PostgreSQL: " + e);
                }
            }, "stop-test-postgres"));
            postgres = started;
        }
        return postgres;
    }

    @Test
    public void aQueryHoldsAConnectionForMsAndThePoolReportsItsSize() {
        assertThat(sample()).containsEntry("db_pool_max", 1);
        HttpResponse<String> response = Http.get(port, "/db?ms=20&cpuMs=1");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(Http.json(response)).containsEntry("heldMs", 20);
        assertThat(sample()).containsEntry("db_pool_active", 0).containsEntry("db_pool_pending", 0)
            .containsEntry("db_pool_max", 1);
    }

    @Test
    public void whileTheOnlyConnectionIsHeldTheNextRequestWaitsAndThenGetsThePools503() {
        // The first request holds the one connection 2.5 s; the second waits for it (seen as pending) until the
        // pool's 1 s connection-timeout, then gets the pool's own answer. Only the order of events is relied on.
        Http.get(port, "/db?ms=1");
        CompletableFuture<HttpResponse<String>> holder =
                CompletableFuture.supplyAsync(() -> Http.get(port, "/db?ms=2500"));
        await().atMost(Duration.ofSeconds(10)).until(() -> ((Number) sample().get("db_pool_active")).intValue() == 1);
        CompletableFuture<HttpResponse<String>> waiter =
                CompletableFuture.supplyAsync(() -> Http.get(port, "/db?ms=1"));
        await().atMost(Duration.ofSeconds(10)).until(() -> ((Number) sample().get("db_pool_pending")).intValue() == 1);
        HttpResponse<String> exhausted = waiter.join();
        Map<String, Object> problem = Http.problem(exhausted, 503, "database-pool-exhausted");
        assertThat(problem).containsEntry("title", "Database pool exhausted");
        assertThat((String) problem.get("detail")).contains("spring.datasource.hikari.connection-timeout");
        assertThat(holder.join().statusCode()).isEqualTo(200);
        assertThat(sample()).containsEntry("db_pool_active", 0).containsEntry("db_pool_pending", 0);
    }

    @Test
    public void requestsBeyondThePoolAreTurnedAwayWhileTheOthersComplete() {
        Http.get(port, "/db?ms=1");
        List<HttpResponse<String>> responses = Http.concurrently(3, port, "/db?ms=2500");
        assertThat(responses).extracting(HttpResponse::statusCode).containsOnly(200, 503).contains(200, 503);
    }

    @Test
    public void aQueryLongerThanItsTimeoutIsA504() {
        HttpResponse<String> response = Http.get(port, "/db?ms=5000");
        Map<String, Object> problem = Http.problem(response, 504, "database-query-timeout");
        assertThat(problem).containsEntry("title", "Database query timed out");
        assertThat((String) problem.get("detail")).contains("3000 ms", "db.query-timeout");
        // The connection went back to the pool: the next query is served.
        assertThat(Http.get(port, "/db?ms=1").statusCode()).isEqualTo(200);
    }
}
