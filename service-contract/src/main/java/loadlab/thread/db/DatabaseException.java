package loadlab.thread.db;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import loadlab.thread.api.ProblemAnswer;
import org.springframework.http.HttpStatus;

/**
 * Why the /db query failed, decided as the answer the caller gets (each cause keeps its own status and type). Public:
 * the reactive service's R2DBC query fails with these same causes ({@link #answer}).
 */
public class DatabaseException extends ProblemAnswer {

    public enum Cause {
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
            return e.getCause() != null ? cannotConnect(e) : poolExhausted(e.getMessage(), e);
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException) {
                return connectionLost(e);
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && sql.getSQLState().startsWith(CONNECTION_EXCEPTION_CLASS)) {
                return connectionLost(e);
            }
        }
        return ofSqlState(e.getSQLState(), e, queryTimeoutMs);
    }

    // The factories below are the one wording of each cause, for the JDBC (above) and the R2DBC (reactive service)
    // paths alike.

    /** No connection could be opened: refused, unknown host, refused login. */
    public static DatabaseException cannotConnect(Throwable e) {
        return new DatabaseException(Cause.UNREACHABLE, "Cannot connect to the database: " + rootMessage(e) + ".", e);
    }

    /** A connection broke while in use (the database stopped or the network failed mid-query). */
    public static DatabaseException connectionLost(Throwable e) {
        return new DatabaseException(Cause.UNREACHABLE,
                "Lost the connection to the database: " + rootMessage(e) + ".", e);
    }

    /** Every connection stayed busy for the pool's wait; {@code waited} says how long. */
    public static DatabaseException poolExhausted(String waited, Throwable e) {
        return new DatabaseException(Cause.POOL_EXHAUSTED,
                waited + " (spring.datasource.hikari.connection-timeout).", e);
    }

    /** An error the database answered with, by its SQLSTATE: the query cancelled by its timeout, a broken
     * connection (class 08), or any other. */
    public static DatabaseException ofSqlState(String sqlState, Throwable e, long queryTimeoutMs) {
        if (QUERY_CANCELED.equals(sqlState)) {
            return new DatabaseException(Cause.QUERY_TIMEOUT,
                    "The query did not finish within " + queryTimeoutMs + " ms (db.query-timeout).", e);
        }
        if (sqlState != null && sqlState.startsWith(CONNECTION_EXCEPTION_CLASS)) {
            return connectionLost(e);
        }
        return new DatabaseException(Cause.ERROR, "The database answered: " + rootMessage(e) + ".", e);
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() != null ? root.getMessage() : root.toString();
    }
}
