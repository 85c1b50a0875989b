package loadlab.thread.forward;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Replaces the startup stack trace with the one line that says what to fix. */
class InvalidClientSettingFailureAnalyzer extends AbstractFailureAnalyzer<InvalidClientSettingException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidClientSettingException cause) {
        String action = "Set " + DownstreamClient.PROPERTY + " (or DELAY_SERVICE_CLIENT) to one of: "
                + DownstreamClient.ALLOWED + "; " + DownstreamClient.POOL_PROPERTY
                + " to a whole number >= 1 with apache or reactor, or leave it unset.";
        return new FailureAnalysis(cause.getMessage(), action, cause);
    }
}
