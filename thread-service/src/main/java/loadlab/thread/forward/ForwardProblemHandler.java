package loadlab.thread.forward;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** Every failure as RFC 9457 problem+json, so the load generator and a human see the same cause. */
@RestControllerAdvice
class ForwardProblemHandler {

    @ExceptionHandler(InvalidDelayException.class)
    ProblemDetail invalidDelay(InvalidDelayException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        problem.setTitle("Invalid query parameter");
        problem.setProperty("parameter", e.parameter());
        problem.setProperty("value", e.value());
        problem.setProperty("min", 0);
        problem.setProperty("max", e.max());
        return problem;
    }

    @ExceptionHandler(DownstreamException.class)
    ProblemDetail downstream(DownstreamException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(e.kind().status, e.getMessage());
        problem.setTitle(e.kind().title);
        if (e.downstreamStatus() != null) {
            problem.setProperty("downstreamStatus", e.downstreamStatus());
        }
        return problem;
    }
}
