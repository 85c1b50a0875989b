package loadlab.thread.forward;

import java.util.Map;

import loadlab.thread.api.ProblemAnswer;
import org.springframework.http.HttpStatus;

/**
 * Why the delay-service call failed, already decided as the status the caller gets. Public: the reactive service's
 * WebClient call fails with these same causes.
 */
public class DownstreamException extends ProblemAnswer {

    public enum Kind {
        REFUSED(HttpStatus.BAD_GATEWAY, "delay-service-unreachable", "Delay-service unreachable"),
        TIMEOUT(HttpStatus.GATEWAY_TIMEOUT, "delay-service-timeout", "Delay-service timed out"),
        // The same status, another cause: the client timeout a team set (DOWNSTREAM_TIMEOUT_MS), not the lab's net.
        CLIENT_TIMEOUT(HttpStatus.GATEWAY_TIMEOUT, "delay-service-client-timeout",
                "Delay-service call exceeded the client timeout"),
        IO_ERROR(HttpStatus.BAD_GATEWAY, "delay-service-io-error", "Delay-service I/O error"),
        BAD_STATUS(HttpStatus.BAD_GATEWAY, "delay-service-error-status", "Delay-service error response"),
        // No connection of the HTTP client's pool came free within the wait (CLIENT=apache|reactor): the service's
        // own limit, before any call was made; neither a timeout of the delay-service (504) nor its refusal (502).
        POOL_FULL(HttpStatus.SERVICE_UNAVAILABLE, "delay-service-client-pool-full",
                "HTTP client's connection pool full");

        final Problem problem;

        Kind(HttpStatus status, String type, String title) {
            this.problem = new Problem(status, type, title);
        }
    }

    private final Kind kind;
    private final Integer downstreamStatus;

    public DownstreamException(Kind kind, String detail, Integer downstreamStatus, Throwable cause) {
        super(kind.problem, detail, cause);
        this.kind = kind;
        this.downstreamStatus = downstreamStatus;
    }

    Kind kind() {
        return kind;
    }

    Integer downstreamStatus() {
        return downstreamStatus;
    }

    @Override
    public Map<String, Object> properties() {
        return downstreamStatus == null ? Map.of() : Map.of("downstreamStatus", downstreamStatus);
    }
}
