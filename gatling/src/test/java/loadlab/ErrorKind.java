package loadlab;

import java.util.ArrayList;
import java.util.List;

/**
 * Why a request failed, as counted per second in {@code errors.csv} and reported as {@code errors_by_kind}: the one
 * list of kinds (also written into meta.json as {@code error_kinds}). A response's status says whose failure it was
 * (the thread-service answers 502 for an unreachable downstream or database, 503 for an exhausted database pool, 504
 * for a timeout of its own); without a response, the time it took says which of the injector's own limits ended it.
 */
public enum ErrorKind {

    /** No response, ended before any timeout: the connection was refused or reset. */
    CONNECTION_FAILED("connection_failed"),
    /** No response after the injector's connect timeout (loadlab.connectTimeoutMs). */
    CONNECT_TIMEOUT("connect_timeout"),
    /** No response within the injector's own request timeout (loadlab.requestTimeoutMs): a harness limit. */
    TIMEOUT_INJECTOR("timeout_injector"),
    STATUS_502("status_502"),
    STATUS_503("status_503"),
    STATUS_504("status_504"),
    STATUS_4XX("status_4xx"),
    STATUS_5XX("status_5xx"),
    /** A response with any other unexpected status (1xx, 2xx other than 200, 3xx). */
    STATUS_OTHER("status_other");

    // A timer that fires within this share of its limit counts as that limit: timers fire a little early or late.
    private static final double TIMER_SLACK = 0.95;

    private final String id;

    ErrorKind(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    public static List<String> ids() {
        List<String> ids = new ArrayList<>();
        for (ErrorKind k : values()) {
            ids.add(k.id);
        }
        return ids;
    }

    /**
     * @param status the response's status, null when no response arrived
     * @param elapsedMs how long the request took (from send to failure)
     */
    public static ErrorKind of(Integer status, long elapsedMs, int requestTimeoutMs, int connectTimeoutMs) {
        if (status == null) {
            if (elapsedMs >= TIMER_SLACK * requestTimeoutMs) {
                return TIMEOUT_INJECTOR;
            }
            if (elapsedMs >= TIMER_SLACK * connectTimeoutMs) {
                return CONNECT_TIMEOUT;
            }
            return CONNECTION_FAILED;
        }
        return switch (status) {
            case 502 -> STATUS_502;
            case 503 -> STATUS_503;
            case 504 -> STATUS_504;
            default -> status >= 500 ? STATUS_5XX : status >= 400 ? STATUS_4XX : STATUS_OTHER;
        };
    }
}
