package loadlab.thread.mode;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Replaces the startup stack trace with the one line that says what to fix. */
class InvalidThreadModeFailureAnalyzer extends AbstractFailureAnalyzer<InvalidThreadModeException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidThreadModeException cause) {
        return new FailureAnalysis(cause.getMessage(),
                "Set " + ThreadMode.PROPERTY + " (or THREAD_MODE) to one of: " + ThreadMode.ALLOWED + ".", cause);
    }
}
