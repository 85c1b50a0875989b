package loadlab.thread.fanout;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * A call of a fan-out failed: the request fails with that call's own exception (a DownstreamException, a concurrency
 * limit's rejection), answered exactly as /forward answers it, not with the wrapper the futures put around it.
 */
public final class CallFailure {

    private CallFailure() {
    }

    /** The call's own failure, to throw. */
    public static RuntimeException unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof ExecutionException || cause instanceof CompletionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof RuntimeException runtime) {
            return runtime;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return new IllegalStateException("A fan-out call failed: " + cause, cause);
    }

    /** The request thread was interrupted while it waited (the service is stopping): kept, and said. */
    public static RuntimeException interrupted(InterruptedException e) {
        Thread.currentThread().interrupt();
        return new IllegalStateException("Interrupted while waiting for the fan-out's calls", e);
    }
}
