package loadlab.delay.api;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** Turns a bad {@code ms} into an RFC 9457 body a client can act on without reading logs. */
@RestControllerAdvice
class DelayProblemHandler {

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
}
