package loadlab.thread.api;

import org.springframework.http.HttpStatus;

/**
 * A failure that already knows the answer the caller gets: its status and a title that names the cause. The injector
 * classifies failed requests by status (502 downstream unreachable, 503 database pool exhausted, 504 a timeout of
 * the service's own), so each cause keeps one status.
 */
public abstract class ProblemAnswer extends RuntimeException {

    private final HttpStatus status;
    private final String title;

    protected ProblemAnswer(HttpStatus status, String title, String detail, Throwable cause) {
        // No stack trace: under overload these can be thousands per second and nobody reads them.
        super(detail, cause, false, false);
        this.status = status;
        this.title = title;
    }

    public HttpStatus status() {
        return status;
    }

    public String title() {
        return title;
    }

    /** Extra problem properties (e.g. the downstream status); none by default. */
    public java.util.Map<String, Object> properties() {
        return java.util.Map.of();
    }
}
