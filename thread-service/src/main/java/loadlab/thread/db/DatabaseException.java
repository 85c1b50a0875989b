package loadlab.thread.db;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import loadlab.thread.api.ProblemAnswer;
import org.springframework.http.HttpStatus;

/** Why the /db query failed, decided as the answer the caller gets (each cause keeps its own status and type). */
class DatabaseException extends ProblemAnswer {

    enum Cause {
        /** HikariCP's connection-timeout passed with a reachable database: every connection stayed busy. */
        POOL_EXHAUSTED(HttpStatus.SERVICE_UNAVAILABLE, "database-pool-exhausted", "Database pool exhausted"),
        /** No connection could be opened (refused, unknown host, refused login) or one broke: a fault, not load. */
        UNREACHABLE(HttpStatus.BAD_GATEWAY, "database-unreachable", "Database unreachable"),
        /** The query ran past db.query-timeout and PostgreSQL cancelled it. */
        QUERY_TIMEOUT(HttpStatus.GATEWAY_TIMEOUT, "database-query-timeout", "Database query timed out"),
        /** Any other SQL error on a connection that was open. */
        ERROR(HttpStatus.BAD_GATEWAY, "database-error", "Database error");

        final Problem problem;

        Cause(HttpStatus status, String type, String title) {
            this.problem = new Problem(status, type, title);
        }
    }

    // PostgreSQL's SQLSTATE for a statement cancelled by its timeout; class 08 is "connection exception".
    private static final String QUERY_CANCELED = "57014";

    private static final String CONNECTION_EXCEPTION_CLASS = "08";

    private final Cause cause;

    private DatabaseException(Cause cause, String detail, Throwable exception) {
        super(cause.problem, detail, exception);
        this.cause = cause;
    }

    Cause kind() {
        return cause;
    }

    static DatabaseException of(SQLException e, long queryTimeoutMs) {
        if (e instanceof SQLTransientConnectionException) {
            // HikariCP's wait for a connection ran out. It attaches the last failure to open (or validate) one, and
            // clears it once a connection opens: with one, the database is refusing; without, the pool was full.
            return e.getCause() != null
                    ? new DatabaseException(Cause.UNREACHABLE,
                            "Cannot connect to the database: " + rootMessage(e) + ".", e)
                    : new DatabaseException(Cause.POOL_EXHAUSTED,
                            e.getMessage() + " (spring.datasource.hikari.connection-timeout).", e);
        }
        if (lostConnection(e)) {
            return new DatabaseException(Cause.UNREACHABLE,
                    "Lost the connection to the database: " + rootMessage(e) + ".", e);
        }
        if (QUERY_CANCELED.equals(e.getSQLState())) {
            return new DatabaseException(Cause.QUERY_TIMEOUT,
                    "The query did not finish within " + queryTimeoutMs + " ms (db.query-timeout).", e);
        }
        return new DatabaseException(Cause.ERROR, "The database answered: " + rootMessage(e) + ".", e);
    }

    // A connection that broke while in use (the database stopped or the network failed mid-query).
    private static boolean lostConnection(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && sql.getSQLState().startsWith(CONNECTION_EXCEPTION_CLASS)) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() != null ? root.getMessage() : root.toString();
    }
}
