package loadlab.thread.mode;

import org.springframework.core.env.Environment;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** Shows which kind of thread really serves a request, so nobody has to trust the configuration. */
@RestController
class ThreadController {

    private final String mode;

    ThreadController(Environment environment) {
        this.mode = ThreadMode.of(environment).id();
    }

    @GetMapping("/thread")
    ThreadInfo thread() {
        Thread current = Thread.currentThread();
        return new ThreadInfo(current.toString(), current.isVirtual(), mode);
    }

    record ThreadInfo(String thread, boolean virtual, String mode) {
    }
}
