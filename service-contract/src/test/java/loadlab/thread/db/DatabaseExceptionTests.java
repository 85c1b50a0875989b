package loadlab.thread.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import loadlab.thread.db.DatabaseException.Cause;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;
import org.postgresql.util.PSQLState;
import org.springframework.http.HttpStatus;

/**
 * The classification of /db failures, with the exceptions HikariCP and PostgreSQL's driver really throw (built here
 * with their own classes and SQLSTATEs). The cases a test database can cause are also run for real in
 * DatabaseScenarioTests and DatabaseDownTests; these add the ones it cannot (a refused login, a connection lost
 * mid-query).
 */
class DatabaseExceptionTests {

    // HikariCP's message when its connection-timeout passes; it attaches the last failure to open a connection.
    private static SQLTransientConnectionException poolTimeout(Throwable lastConnectionFailure) {
        return new SQLTransientConnectionException("HikariPool-1 - Connection is not available, request timed out "
                + "after 500ms (total=1, active=1, idle=0, waiting=0)", null, lastConnectionFailure);
    }

    @Test
    void aPoolTimeoutWithoutAConnectionFailureIsAnExhaustedPool() {
        DatabaseException e = DatabaseException.of(poolTimeout(null), 1000);
        assertThat(e.kind()).isEqualTo(Cause.POOL_EXHAUSTED);
        assertThat(e.status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(e.type()).isEqualTo("database-pool-exhausted");
    }

    @Test
    void aPoolTimeoutAfterRefusedConnectionsIsAnUnreachableDatabase() {
        PSQLException refused = new PSQLException("Connection to 127.0.0.1:1 refused.",
                PSQLState.CONNECTION_UNABLE_TO_CONNECT, new ConnectException("Connection refused"));
        DatabaseException e = DatabaseException.of(poolTimeout(refused), 1000);
        assertThat(e.kind()).isEqualTo(Cause.UNREACHABLE);
        assertThat(e.status()).isEqualTo(HttpStatus.BAD_GATEWAY);
        assertThat(e.getMessage()).contains("Connection refused");
    }

    @Test
    void aPoolTimeoutAfterARefusedLoginIsAnUnreachableDatabaseNotAFullPool() {
        PSQLException login = new PSQLException("FATAL: role \"nobody\" does not exist",
                PSQLState.INVALID_AUTHORIZATION_SPECIFICATION);
        DatabaseException e = DatabaseException.of(poolTimeout(login), 1000);
        assertThat(e.kind()).isEqualTo(Cause.UNREACHABLE);
        assertThat(e.getMessage()).contains("role \"nobody\"");
    }

    @Test
    void aConnectionLostMidQueryIsAnUnreachableDatabase() {
        PSQLException lost = new PSQLException("An I/O error occurred while sending to the backend.",
                PSQLState.CONNECTION_FAILURE);
        assertThat(DatabaseException.of(lost, 1000).kind()).isEqualTo(Cause.UNREACHABLE);
    }

    @Test
    void aCancelledStatementIsTheQueryTimeout() {
        PSQLException cancelled = new PSQLException("ERROR: canceling statement due to user request",
                PSQLState.QUERY_CANCELED);
        DatabaseException e = DatabaseException.of(cancelled, 1234);
        assertThat(e.kind()).isEqualTo(Cause.QUERY_TIMEOUT);
        assertThat(e.status()).isEqualTo(HttpStatus.GATEWAY_TIMEOUT);
        assertThat(e.getMessage()).contains("1234 ms", "db.query-timeout");
    }

    @Test
    void anyOtherSqlErrorIsADatabaseError() {
        SQLException syntax = new PSQLException("ERROR: syntax error", PSQLState.SYNTAX_ERROR);
        DatabaseException e = DatabaseException.of(syntax, 1000);
        assertThat(e.kind()).isEqualTo(Cause.ERROR);
        assertThat(e.status()).isEqualTo(HttpStatus.BAD_GATEWAY);
        assertThat(e.type()).isEqualTo("database-error");
    }
}
