package loadlab.thread.api;

import org.springframework.http.HttpStatus;

/**
 * A failure that already knows the answer the caller gets: its status, a problem type and a title that name the
 * cause. The injector classifies failed requests by status (502 downstream or database unreachable, 503 database
 * pool exhausted, 504 a timeout of the service's own), so each cause keeps one status; the type tells causes that
 * share a status apart (see {@link ProblemTypes}).
 */
public abstract class ProblemAnswer extends RuntimeException {

    /**
     * One cause's answer: its status, its slug among {@link ProblemTypes} (e.g. {@code database-pool-exhausted})
     * and its title.
     */
    public record Problem(HttpStatus status, String type, String title) {
    }

    private final Problem problem;

    protected ProblemAnswer(Problem problem, String detail, Throwable cause) {
        // No stack trace: under overload these can be thousands per second and nobody reads them.
        super(detail, cause, false, false);
        this.problem = problem;
    }

    public HttpStatus status() {
        return problem.status();
    }

    public String type() {
        return problem.type();
    }

    public String title() {
        return problem.title();
    }

    /** Extra problem properties (e.g. the downstream status); none by default. */
    public java.util.Map<String, Object> properties() {
        return java.util.Map.of();
    }
}
