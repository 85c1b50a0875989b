package loadlab.gatling.recorder;

import java.io.IOException;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.gatling.http.client.impl.PrematureCloseException;
import io.gatling.http.client.impl.RequestTimeoutException;
import io.netty.channel.ConnectTimeoutException;

/**
 * Why a request failed, as counted per second in {@code errors.csv} and reported as {@code errors_by_kind}: the one
 * list of kinds, written into meta.json as {@code error_kinds} (ids, in this order) and {@code error_kind_meanings},
 * so the harness never spells them. A response's status says whose failure it was (the thread-service answers 502
 * for an unreachable downstream or database, 503 for an exhausted database pool, 504 for a timeout of its own);
 * without a response, the exception Gatling's HTTP client failed with says which (captured by the simulation's
 * {@code FailureCauses}).
 */
public enum ErrorKind {

    CONNECT_REFUSED("connect_refused", "no response: the connection was refused (nothing listening, or a full "
            + "backlog that refuses)"),
    CONNECT_RESET("connect_reset", "no response: the connection was reset or closed by the other side before a "
            + "complete response"),
    CONNECT_TIMEOUT("connect_timeout", "no response: the connection was not established within the injector's "
            + "connect timeout (loadlab.connectTimeoutMs, or the kernel's SYN retries)"),
    TIMEOUT_INJECTOR("timeout_injector", "no response within the injector's own request timeout "
            + "(loadlab.requestTimeoutMs): a harness limit, not an answer of the service"),
    STATUS_502("status_502", "502 from the thread-service: its downstream (delay-service or database) refused or "
            + "was unreachable"),
    STATUS_503("status_503", "503 from the thread-service: its database pool was exhausted"),
    STATUS_504("status_504", "504 from the thread-service: its own downstream or query timeout"),
    STATUS_4XX("status_4xx", "any 4xx answer"),
    STATUS_5XX("status_5xx", "any other 5xx answer"),
    OTHER("other", "anything else: an unexpected status (1xx, 3xx, a 2xx other than 200) or a failure without a "
            + "response of another cause (e.g. unknown host)");

    // Without a captured cause (it never happened in our runs, see FailureCauses), a failure that lasted this share of
    // the request timeout is still counted as that timeout: the harness's own limit must never read as the service's.
    private static final double TIMER_SLACK = 0.95;

    private final String id;
    private final String meaning;

    ErrorKind(String id, String meaning) {
        this.id = id;
        this.meaning = meaning;
    }

    public String id() {
        return id;
    }

    public String meaning() {
        return meaning;
    }

    public static List<String> ids() {
        List<String> ids = new ArrayList<>();
        for (ErrorKind k : values()) {
            ids.add(k.id);
        }
        return ids;
    }

    /** Every id with its one-line meaning, in list order (meta.json {@code error_kind_meanings}). */
    public static Map<String, String> meanings() {
        Map<String, String> m = new LinkedHashMap<>();
        for (ErrorKind k : values()) {
            m.put(k.id, k.meaning);
        }
        return m;
    }

    /**
     * One failed request.
     *
     * @param status the response's status, null when no response arrived
     * @param cause what the HTTP client failed with when no response arrived ({@link #ofCause}), null if not known
     * @param elapsedMs how long the request took (from send to failure)
     */
    public static ErrorKind of(Integer status, ErrorKind cause, long elapsedMs, long requestTimeoutMs) {
        if (status != null) {
            return ofStatus(status);
        }
        if (cause != null) {
            return cause;
        }
        return elapsedMs >= TIMER_SLACK * requestTimeoutMs ? TIMEOUT_INJECTOR : OTHER;
    }

    /** A response that is not the expected 200. */
    public static ErrorKind ofStatus(int status) {
        return switch (status) {
            case 502 -> STATUS_502;
            case 503 -> STATUS_503;
            case 504 -> STATUS_504;
            default -> status >= 600 || status < 400 ? OTHER : status >= 500 ? STATUS_5XX : STATUS_4XX;
        };
    }

    /**
     * A request that got no response, by the exception Gatling's HTTP client (gatling-http-client on Netty) ended it
     * with; the first recognised one along the cause chain. Samples seen in Gatling 3.15.1 runs (ErrorKindTest):
     * refused: {@code AbstractChannel$AnnotatedConnectException: finishConnect(..) failed with error(-111):
     * Connection refused: /127.0.0.1:1}; reset or closed: {@code PrematureCloseException: Premature close};
     * connect timeout: {@code io.netty.channel.ConnectTimeoutException: connection timed out after 1000 ms: /127...};
     * request timeout: {@code RequestTimeoutException: Request timeout to 127.0.0.1/127.0.0.1:46407 after 1500 ms}.
     */
    public static ErrorKind ofCause(Throwable failure) {
        int depth = 0;
        for (Throwable t = failure; t != null && depth < 10; t = t.getCause(), depth++) {
            ErrorKind k = ofOne(t);
            if (k != null) {
                return k;
            }
        }
        return OTHER;
    }

    private static ErrorKind ofOne(Throwable t) {
        String message = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
        if (t instanceof RequestTimeoutException) {
            return TIMEOUT_INJECTOR;
        }
        // Before ConnectException: Netty's ConnectTimeoutException is one.
        if (t instanceof ConnectTimeoutException) {
            return CONNECT_TIMEOUT;
        }
        if (t instanceof ConnectException) {
            // The kernel's own connect timeout (ETIMEDOUT after the SYN retries) comes as a ConnectException too.
            if (message.contains("timed out")) {
                return CONNECT_TIMEOUT;
            }
            return message.contains("refused") ? CONNECT_REFUSED : null;
        }
        if (t instanceof PrematureCloseException) {
            return CONNECT_RESET;
        }
        if (t instanceof IOException && (message.contains("connection reset") || message.contains("broken pipe"))) {
            return CONNECT_RESET;
        }
        return null;
    }
}
