package loadlab.thread.db;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import loadlab.thread.api.ProblemAnswer;
import org.springframework.http.HttpStatus;

/** Why the /db query failed, decided as the status the caller gets (each cause keeps its own status). */
class DatabaseException extends ProblemAnswer {

    // PostgreSQL's SQLSTATE for a statement cancelled by its timeout; class 08 is "connection exception".
    private static final String QUERY_CANCELED = "57014";

    private static final String CONNECTION_EXCEPTION_CLASS = "08";

    private DatabaseException(HttpStatus status, String title, String detail, Throwable cause) {
        super(status, title, detail, cause);
    }

    static DatabaseException of(SQLException e, long queryTimeoutMs) {
        if (unreachable(e)) {
            return new DatabaseException(HttpStatus.BAD_GATEWAY, "Database unreachable",
                    "Cannot connect to the database: " + rootMessage(e) + ".", e);
        }
        if (e instanceof SQLTransientConnectionException) {
            // HikariCP's connection-timeout with a healthy database: every connection stayed busy.
            return new DatabaseException(HttpStatus.SERVICE_UNAVAILABLE, "Database pool exhausted",
                    e.getMessage() + " (spring.datasource.hikari.connection-timeout).", e);
        }
        if (QUERY_CANCELED.equals(e.getSQLState())) {
            return new DatabaseException(HttpStatus.GATEWAY_TIMEOUT, "Database query timed out",
                    "The query did not finish within " + queryTimeoutMs + " ms (db.query-timeout).", e);
        }
        return new DatabaseException(HttpStatus.BAD_GATEWAY, "Database error",
                "The database answered: " + rootMessage(e) + ".", e);
    }

    // A pool that cannot open connections reports its own timeout with the connection failure as the cause.
    private static boolean unreachable(SQLException e) {
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
