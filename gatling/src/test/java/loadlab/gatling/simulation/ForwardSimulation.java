package loadlab.gatling.simulation;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.incrementUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.core.CoreDsl.stopLoadGenerator;
import static io.gatling.javaapi.http.HttpDsl.http;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import loadlab.gatling.config.LoadConfig;
import loadlab.gatling.config.Mix;
import loadlab.gatling.config.Schedule;
import loadlab.gatling.monitor.RunMonitor;
import loadlab.gatling.recorder.ErrorKind;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.OpenInjectionStep;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;

/**
 * Open-model load on the thread-service: one request per virtual user ({@link Requests}: the scenario's, APP_PATH's
 * or a kind of APP_REQUESTS's mix), a warm-up, then stairs or a ramp. A failed request is classified
 * ({@link ErrorKind}) by its status or, without a response, by the exception the HTTP client failed with
 * ({@link FailureCauses}). Every request is also recorded
 * by {@link RunMonitor} into the per-second raw files the harness analyses; Gatling's own report is a by-product.
 * All settings are {@code loadlab.*} system properties (gatling/README.md).
 */
public class ForwardSimulation extends Simulation {

    private static final int PILOT_SECONDS = 1;

    // With a go file, the JVM is up before the service is: it waits here, before any raw file or request (GoSignal).
    private final LoadConfig cfg = goOrExit(loadConfigOrExit());
    private final Mix mix = mixOrExit();
    private final Schedule schedule = Schedule.of(cfg);
    private final RunMonitor monitor = monitorOrExit(cfg, schedule, timeoutsInForceOrExit(cfg), mix);
    private final FailureCauses causes = failureCausesOrExit();

    {
        // No shareConnections(): each virtual user opens its own connection, as independent clients do.
        HttpProtocolBuilder protocol = http.baseUrl(cfg.baseUrl()).disableWarmUp();

        ChainBuilder send = new Requests(cfg, monitor, causes).chain(mix);

        ScenarioBuilder forward = scenario("forward")
                .pause(session -> Duration.ofMillis(monitor.alignDelayMs(System.currentTimeMillis())))
                .doIfOrElse(session -> monitor.shouldStop())
                .then(stopLoadGenerator(session -> monitor.stopReason()))
                .orElse(send);
        // The seconds' anchor is fixed by the first user to arrive, and it must be one of injection second 0. Gatling
        // injects no user in a second whose rate rounds down to 0 (a warm-up climbing from a tenth of a low rate:
        // 0.2 -> 2 rps gives 0.65 users in its first second), so the first forward user can come a second or more
        // late, and every label, the levels' bounds in meta.json and the early stop's windows with it. A clock user
        // at injection second 0, through the same pause as the forward users, fixes it whatever the rate.
        ScenarioBuilder clock = scenario("clock")
                .pause(session -> Duration.ofMillis(monitor.alignDelayMs(System.currentTimeMillis())));

        // A backstop only: the schedule, the slowest possible request and a margin.
        long maxSeconds = PILOT_SECONDS + schedule.totalSeconds() + cfg.requestTimeoutMs() / 1000L + 15;
        // The first virtual user of a fresh JVM starts ~50 ms late (class loading, JIT). The alignment pause is fixed
        // by the clock user, so a pilot user takes that hit one second earlier.
        ScenarioBuilder pilot = scenario("pilot").pause(session -> Duration.ZERO).exec(session -> session);

        setUp(pilot.injectOpen(atOnceUsers(1)), clock.injectOpen(nothingFor(PILOT_SECONDS), atOnceUsers(1)),
                forward.injectOpen(injection()))
                .protocols(protocol)
                .maxDuration(Duration.ofSeconds(maxSeconds));
    }

    private List<OpenInjectionStep> injection() {
        List<OpenInjectionStep> steps = new ArrayList<>();
        steps.add(nothingFor(PILOT_SECONDS));
        if (schedule.warmupRampSeconds() > 0) {
            steps.add(rampUsersPerSec(schedule.warmupRampFromRps()).to(schedule.warmupRps())
                    .during(schedule.warmupRampSeconds()));
        }
        int held = schedule.warmupSeconds() - schedule.warmupRampSeconds();
        if (held > 0) {
            steps.add(constantUsersPerSec(schedule.warmupRps()).during(held));
        }
        if (schedule.ramp()) {
            steps.add(rampUsersPerSec(schedule.startRps()).to(schedule.peakRps()).during(schedule.measureSeconds()));
        } else {
            steps.add(incrementUsersPerSec(schedule.stairsIncrement()).times(schedule.steps())
                    .eachLevelLasting(schedule.stepSeconds()).startingFrom(schedule.startRps()));
        }
        return steps;
    }

    @Override
    public void before() {
        monitor.start();
    }

    @Override
    public void after() {
        monitor.finish(null);
    }

    private static LoadConfig loadConfigOrExit() {
        try {
            return LoadConfig.fromSystemProperties();
        } catch (IllegalArgumentException e) {
            throw exit(e.getMessage());
        }
    }

    private static LoadConfig goOrExit(LoadConfig cfg) {
        if (cfg.goFile().isEmpty()) {
            return cfg;
        }
        try {
            return cfg.startingAt(GoSignal.await(Path.of(cfg.goFile()), cfg.goTimeoutSeconds() * 1000L,
                    cfg.injectorIndex(), System.out));
        } catch (IllegalStateException e) {
            throw exit(e.getMessage());
        }
    }

    private static Mix mixOrExit() {
        try {
            return Mix.fromSystemProperty();
        } catch (IllegalArgumentException e) {
            throw exit(e.getMessage());
        }
    }

    private static RunMonitor monitorOrExit(LoadConfig cfg, Schedule schedule, RunMonitor.Timeouts timeouts,
            Mix mix) {
        try {
            return new RunMonitor(cfg, schedule, timeouts, mix, System.out);
        } catch (UncheckedIOException e) {
            throw exit("loadlab.outDir=" + cfg.outDir() + ": " + e.getMessage() + " (" + e.getCause() + ")");
        }
    }

    /**
     * The limits Gatling will apply, read back from its loaded configuration. The request timeout is set on the
     * request itself (it wins over gatling.http.requestTimeout); the connect timeout exists only in the
     * configuration (gatling.socket.connectTimeout, which gatling.conf takes from loadlab.connectTimeoutMs): a
     * different gatling.conf or a -Dgatling.socket.connectTimeout would make it differ, and meta.json must not
     * record a limit that was not in force.
     */
    private static RunMonitor.Timeouts timeoutsInForceOrExit(LoadConfig cfg) {
        long connectMs = io.gatling.core.Predef.configuration().socket().connectTimeout().toMillis();
        if (connectMs != cfg.connectTimeoutMs()) {
            throw exit("loadlab.connectTimeoutMs=" + cfg.connectTimeoutMs() + ": Gatling's configuration says "
                    + "gatling.socket.connectTimeout=" + connectMs + " (gatling.conf on the classpath must take "
                    + "${?loadlab.connectTimeoutMs}, as gatling/src/test/resources/gatling.conf does)");
        }
        return new RunMonitor.Timeouts(cfg.requestTimeoutMs(), connectMs);
    }

    private static FailureCauses failureCausesOrExit() {
        try {
            return FailureCauses.install();
        } catch (IllegalStateException e) {
            throw exit(e.getMessage());
        }
    }

    /**
     * A bad setting ends the JVM with one line per problem and exit code 1 (Gatling's "invalid arguments"; 2 would
     * read as "assertions failed" to the Maven plugin), not a Gatling stack trace.
     */
    private static IllegalStateException exit(String lines) {
        for (String line : lines.split("\n")) {
            System.out.println("LOADLAB ERROR " + line);
        }
        System.out.flush();
        System.exit(1);
        return new IllegalStateException(lines);
    }
}
