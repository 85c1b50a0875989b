package loadlab.thread.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;

import loadlab.thread.support.Http;
import loadlab.thread.support.ServiceTests;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * No database at all: the service still starts healthy (other scenarios), and /db says the database is down. The same
 * for every service (DatabaseDownTests here, reactive-service's through the test jar).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "management.server.port=0", "spring.datasource.hikari.connection-timeout=1000" })
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public abstract class DatabaseDownContractTests extends ServiceTests {

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        int closed = LocalPostgres.freePort();
        registry.add("spring.datasource.url", () -> "jdbc:postgresql://127.0.0.1:" + closed + "/loadlab");
    }

    // First: any /db request starts the pool, and the point here is the service before one.
    @Test
    @Order(1)
    public void theServiceIsHealthyWithoutADatabaseAndThePoolIsNotStarted() {
        assertThat(Http.get(managementPort, "/actuator/health").statusCode()).isEqualTo(200);
        assertThat(sample()).containsEntry("db_pool_active", -1);
    }

    @Test
    public void anUnreachableDatabaseIsA502ThatSaysSo() {
        HttpResponse<String> response = Http.get(port, "/db?ms=10");
        Map<String, Object> problem = Http.problem(response, 502, "database-unreachable");
        assertThat(problem).containsEntry("title", "Database unreachable");
        assertThat((String) problem.get("detail")).contains("Cannot connect to the database");
    }

    @ParameterizedTest
    @ValueSource(strings = { "/db", "/db?ms=", "/db?ms=-3", "/db?ms=60001", "/db?ms=1.5", "/db?ms=1&cpuMs=x",
            "/db?ms=1&cpuMs=10001" })
    public void badParametersAreA400BeforeAnyConnectionIsAsked(String path) {
        HttpResponse<String> response = Http.get(port, path);
        assertThat(Http.problem(response, 400, "invalid-parameter")).containsEntry("title", "Invalid query parameter");
    }
}
