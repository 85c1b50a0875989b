package loadlab.gatling.simulation;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.percent;
import static io.gatling.javaapi.core.CoreDsl.randomSwitchOrElse;
import static io.gatling.javaapi.core.CoreDsl.responseTimeInMillis;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import loadlab.gatling.config.LoadConfig;
import loadlab.gatling.config.Mix;
import loadlab.gatling.monitor.RunMonitor;
import loadlab.gatling.recorder.ErrorKind;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Choice;
import io.gatling.javaapi.http.HttpRequestActionBuilder;

/**
 * What one virtual user sends: the scenario's one request (or APP_PATH's), or one kind of APP_REQUESTS's mix drawn by
 * Gatling's {@code randomSwitchOrElse} at the kind's share, its placeholders filled by Gatling's feeders. Each request
 * is timed, classified ({@link ErrorKind}) and recorded by {@link RunMonitor}, a kind also on its own.
 */
final class Requests {

    private static final String SENT_NS = "loadlab.sentNs";
    private static final String RESPONSE_MS = "loadlab.responseMs";
    private static final String STATUS = "loadlab.status";
    /** A kind of the mix succeeds with any 2xx (a POST answers 201); the single request with 200, as before. */
    private static final List<Integer> SUCCESS = IntStream.range(200, 300).boxed().toList();

    private final LoadConfig cfg;
    private final RunMonitor monitor;
    private final FailureCauses causes;

    Requests(LoadConfig cfg, RunMonitor monitor, FailureCauses causes) {
        this.cfg = cfg;
        this.monitor = monitor;
        this.causes = causes;
    }

    ChainBuilder chain(Mix mix) {
        if (mix.isEmpty()) {
            return timed(-1, http(cfg.scenario()).get(cfg.requestPath()), List.of(200));
        }
        List<Mix.Kind> kinds = mix.kinds();
        ChainBuilder fed = exec(session -> session);
        for (Mix.Feeder f : mix.feeders()) {
            fed = fed.exec(feed(f.iterator()));
        }
        // The last kind takes what the others leave, so the shares add up to exactly 100% whatever their rounding.
        List<Choice.WithWeight> choices = new ArrayList<>();
        for (int i = 0; i < kinds.size() - 1; i++) {
            choices.add(percent(kinds.get(i).hundredths() / 100.0).then(kind(i, kinds.get(i))));
        }
        int last = kinds.size() - 1;
        if (choices.isEmpty()) {
            return fed.exec(kind(last, kinds.get(last)));
        }
        return fed.exec(randomSwitchOrElse().on(choices).orElse(kind(last, kinds.get(last))));
    }

    private ChainBuilder kind(int index, Mix.Kind k) {
        HttpRequestActionBuilder request = http(k.name()).httpRequest(k.method(), k.path());
        if (k.hasBody()) {
            request = request.body(StringBody(k.body())).header("Content-Type", k.contentType());
        }
        return timed(index, request, SUCCESS);
    }

    private ChainBuilder timed(int kind, HttpRequestActionBuilder request, List<Integer> success) {
        return exec(session -> session.set(SENT_NS, kind >= 0 ? monitor.sent(kind) : monitor.sent()))
                .exec(request.requestTimeout(Duration.ofMillis(cfg.requestTimeoutMs()))
                        // Response time and status first: checks stop at the first failure, and a failure must be
                        // timed and classified too (ErrorKind).
                        .check(responseTimeInMillis().saveAs(RESPONSE_MS), status().saveAs(STATUS),
                                status().in(success)))
                .exec(session -> {
                    Integer responseMs = session.contains(RESPONSE_MS) ? session.getInt(RESPONSE_MS) : null;
                    Integer status = session.contains(STATUS) ? session.getInt(STATUS) : null;
                    // Taken for every user, so a kind never outlives its request.
                    ErrorKind cause = causes.take(session.userId());
                    monitor.completed(kind, session.getLong(SENT_NS), responseMs, !session.isFailed(), status, cause);
                    return session;
                });
    }
}
