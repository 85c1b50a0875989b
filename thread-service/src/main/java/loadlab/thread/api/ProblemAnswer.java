package loadlab.thread.api;

import org.springframework.http.HttpStatus;

/**
 * A failure that already knows the answer the caller gets: its status, a problem type and a title that name the
 * cause. The injector classifies failed requests by status (502 downstream or database unreachable, 503 database
 * pool exhausted, 504 a timeout of the service's own), so each cause keeps one status; the type tells causes that
 * share a status apart (see {@link ProblemTypes}).
 */
public abstract class ProblemAnswer extends RuntimeException {

    private final HttpStatus status;
    private final String type;
    private final String title;

    /** @param type the cause's slug among {@link ProblemTypes} (e.g. {@code database-pool-exhausted}) */
    protected ProblemAnswer(HttpStatus status, String type, String title, String detail, Throwable cause) {
        // No stack trace: under overload these can be thousands per second and nobody reads them.
        super(detail, cause, false, false);
        this.status = status;
        this.type = type;
        this.title = title;
    }

    public HttpStatus status() {
        return status;
    }

    public String type() {
        return type;
    }

    public String title() {
        return title;
    }

    /** Extra problem properties (e.g. the downstream status); none by default. */
    public java.util.Map<String, Object> properties() {
        return java.util.Map.of();
    }
}
