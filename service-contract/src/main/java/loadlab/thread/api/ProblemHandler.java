package loadlab.thread.api;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Every failure as RFC 9457 problem+json, so the load generator and a human see the same cause. Plain spring-web
 * annotations: the reactive service (WebFlux) serves its errors through this same class.
 */
@RestControllerAdvice
public class ProblemHandler {

    @ExceptionHandler(InvalidParameterException.class)
    ProblemDetail invalidParameter(InvalidParameterException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        problem.setType(ProblemTypes.of(ProblemTypes.INVALID_PARAMETER));
        problem.setTitle("Invalid query parameter");
        problem.setProperty("parameter", e.parameter());
        problem.setProperty("value", e.value());
        e.limits().forEach(problem::setProperty);
        return problem;
    }

    @ExceptionHandler(ProblemAnswer.class)
    ProblemDetail answer(ProblemAnswer e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(e.status(), e.getMessage());
        problem.setType(ProblemTypes.of(e.type()));
        problem.setTitle(e.title());
        e.properties().forEach(problem::setProperty);
        return problem;
    }
}
