package loadlab.reactive.db;

import java.util.Map;

import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.R2dbcException;
import io.r2dbc.spi.R2dbcNonTransientResourceException;
import io.r2dbc.spi.R2dbcTimeoutException;
import loadlab.reactive.cpu.ReactiveCpu;
import loadlab.thread.cpu.CpuWork;
import loadlab.thread.db.DatabaseException;
import loadlab.thread.db.DbProperties;
import loadlab.thread.forward.DelayParameter;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The pool-limited shape (thread-service's /db): each request borrows one of the pool's DB_POOL connections and holds
 * it for {@code ms} inside PostgreSQL ({@code pg_sleep}), without a thread waiting; the rest wait in the pool's queue.
 * Failures are the thread-service's causes ({@link DatabaseException}): 503 pool exhausted, 502 unreachable, 504 the
 * query's timeout, 502 any other error.
 */
@RestController
class DatabaseController {

    private final ConnectionPool pool;

    private final DatabasePoolProbe probe;

    private final DelayParameter parameter;

    private final CpuWork work;

    private final ReactiveCpu cpu;

    private final long queryTimeoutMs;

    DatabaseController(ConnectionPool databasePool, DatabasePoolProbe probe, DelayParameter parameter, CpuWork work,
            ReactiveCpu cpu, DbProperties properties) {
        this.pool = databasePool;
        this.probe = probe;
        this.parameter = parameter;
        this.work = work;
        this.cpu = cpu;
        this.queryTimeoutMs = properties.queryTimeout().toMillis();
    }

    @GetMapping("/db")
    Mono<Map<String, Object>> db(@RequestParam(name = "ms", required = false) String ms,
            @RequestParam(name = "cpuMs", required = false) String cpuMs) {
        long hold = parameter.parse(ms);
        long compute = work.parseOptional(cpuMs);
        return cpu.run(compute)
            .then(Mono.usingWhen(acquire(), connection -> sleep(connection, hold), Connection::close))
            .thenReturn(Map.of("heldMs", hold));
    }

    // A failure before a connection is ours is the pool's or the connect's; after, the query's (below).
    private Mono<Connection> acquire() {
        return Mono.defer(() -> {
            probe.starting();
            return pool.create();
        }).onErrorMap(e -> !(e instanceof DatabaseException), e -> e instanceof R2dbcTimeoutException
                ? DatabaseException.poolExhausted(e.getMessage(), e)
                : DatabaseException.cannotConnect(e));
    }

    private Mono<Void> sleep(Connection connection, long holdMs) {
        return Flux.from(connection.createStatement("select pg_sleep($1)").bind("$1", holdMs / 1000.0).execute())
            .flatMap(result -> result.map((row, metadata) -> 1))
            .then()
            .onErrorMap(e -> !(e instanceof DatabaseException), this::queryFailure);
    }

    private DatabaseException queryFailure(Throwable e) {
        // The driver's resource exceptions without a SQLSTATE: the connection closed or broke under the query.
        if (e instanceof R2dbcNonTransientResourceException && ((R2dbcException) e).getSqlState() == null) {
            return DatabaseException.connectionLost(e);
        }
        return DatabaseException.ofSqlState(e instanceof R2dbcException r2dbc ? r2dbc.getSqlState() : null, e,
                queryTimeoutMs);
    }
}
