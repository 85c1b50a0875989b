package loadlab.thread.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;

import javax.sql.DataSource;

import loadlab.thread.cpu.CpuWork;
import loadlab.thread.forward.DelayParameter;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The pool-limited shape: each request borrows one of HikariCP's {@code maximum-pool-size} connections and holds it
 * for {@code ms} inside PostgreSQL ({@code pg_sleep}). Whatever the threads, at most pool-size requests wait at once;
 * the rest queue for a connection.
 */
@RestController
class DatabaseController {

    private final DataSource dataSource;

    private final DelayParameter parameter;

    private final CpuWork work;

    private final long queryTimeoutMs;

    DatabaseController(DataSource dataSource, DelayParameter parameter, CpuWork work, DbProperties properties) {
        this.dataSource = dataSource;
        this.parameter = parameter;
        this.work = work;
        this.queryTimeoutMs = properties.queryTimeout().toMillis();
    }

    @GetMapping("/db")
    Map<String, Object> db(@RequestParam(name = "ms", required = false) String ms,
            @RequestParam(name = "cpuMs", required = false) String cpuMs) {
        long hold = parameter.parse(ms);
        work.run(work.parseOptional(cpuMs));
        try (Connection connection = dataSource.getConnection();
                PreparedStatement sleep = connection.prepareStatement("select pg_sleep(?)")) {
            // JDBC counts whole seconds: round up, so the limit is never below what was asked.
            sleep.setQueryTimeout((int) Math.max(1, (queryTimeoutMs + 999) / 1000));
            sleep.setDouble(1, hold / 1000.0);
            sleep.execute();
        } catch (SQLException e) {
            throw DatabaseException.of(e, queryTimeoutMs);
        }
        return Map.of("heldMs", hold);
    }
}
