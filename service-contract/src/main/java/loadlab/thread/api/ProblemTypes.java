package loadlab.thread.api;

import java.net.URI;

/**
 * The {@code type} of every problem answer: one URI per cause, so a client (the injector, a test, a human with curl)
 * tells causes apart without parsing the title or the detail, also where two causes share a status (502: the
 * delay-service or the database unreachable). Tag URIs (RFC 4151), as RFC 9457 suggests for types that are
 * identifiers only: nothing is published at them.
 */
public final class ProblemTypes {

    static final String PREFIX = "tag:loadlab,2026:problem/";

    public static final String INVALID_PARAMETER = "invalid-parameter";

    private ProblemTypes() {
    }

    /** The type URI of a cause's slug, e.g. {@code tag:loadlab,2026:problem/database-pool-exhausted}. */
    public static URI of(String slug) {
        return URI.create(PREFIX + slug);
    }
}
