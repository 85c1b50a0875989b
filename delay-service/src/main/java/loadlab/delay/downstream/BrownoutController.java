package loadlab.delay.downstream;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The harness's command: {@code POST /loadlab/brownout?from=<epoch ms>&to=<epoch ms>&ms=<delay>} schedules the
 * window ({@link Brownout}); {@code GET} reads it back. A window that cannot be kept (its start already passed, or
 * not a window) is a 400 problem, so a late command is named by the harness instead of measured as a brownout.
 */
@RestController
class BrownoutController {

    static final String PATH = "/loadlab/brownout";

    private final Brownout brownout;

    BrownoutController(Brownout brownout) {
        this.brownout = brownout;
    }

    @PostMapping(path = PATH)
    ResponseEntity<Object> schedule(@RequestParam(required = false) Long from,
            @RequestParam(required = false) Long to, @RequestParam(required = false) Long ms) {
        long now = System.currentTimeMillis();
        if (from == null || to == null || ms == null) {
            return problem("Query parameters 'from', 'to' (epoch ms) and 'ms' (the delay) are required.");
        }
        if (from < now) {
            return problem("The brownout's start " + from + " has already passed (now " + now + "): it cannot "
                    + "switch on time.");
        }
        try {
            Brownout.Window window = new Brownout.Window(from, to, ms, now);
            brownout.schedule(window);
            return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(window);
        } catch (IllegalArgumentException e) {
            return problem(e.getMessage());
        }
    }

    @GetMapping(path = PATH, produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Object> read() {
        Brownout.Window w = brownout.window();
        return w == null ? ResponseEntity.noContent().build() : ResponseEntity.ok(w);
    }

    private static ResponseEntity<Object> problem(String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, detail);
        problem.setTitle("Brownout not scheduled");
        return ResponseEntity.badRequest().contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
    }
}
