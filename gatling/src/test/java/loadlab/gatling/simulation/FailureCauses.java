package loadlab.gatling.simulation;

import java.util.concurrent.ConcurrentHashMap;

import loadlab.gatling.recorder.ErrorKind;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;

/**
 * Why each request that got no response failed, by virtual user. Gatling keeps a failure's cause out of the session
 * (a check never runs without a response); the one place it hands over the exception itself is a DEBUG line of
 * {@code GatlingHttpListener}: {@code logger.debug("Request '<name>' failed for user <id>", throwable)}, logged before
 * the user moves on to its next action. This logback turbo filter answers "yes" to that logger's
 * {@code isDebugEnabled()} (so Gatling builds the one-line message, nothing else), classifies the throwable
 * ({@link ErrorKind#ofCause}), keeps the kind under the user id, and then lets the logger's own level decide as
 * usual, so nothing extra is printed. The simulation takes the kind back in its next action ({@link #take}).
 *
 * <p>Tied to Gatling 3.15's message; FailureKindsGatlingTest runs a real Gatling against real failures, so a change
 * there fails the build instead of silently filing every failure as {@code other}.
 */
public final class FailureCauses extends TurboFilter {

    /** Scala object logger name (StrictLogging: getClass.getName); the class reference breaks the build if renamed. */
    static final String LISTENER_LOGGER = io.gatling.http.engine.GatlingHttpListener$.class.getName();
    static final String USER_MARK = " failed for user ";

    private final ConcurrentHashMap<Long, ErrorKind> byUser = new ConcurrentHashMap<>();

    /** Adds the filter to logback, the logging Gatling ships with. */
    public static FailureCauses install() {
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (!(factory instanceof LoggerContext context)) {
            throw new IllegalStateException("failed requests cannot be classified: the logging backend is "
                    + factory.getClass().getName() + ", not logback (gatling/target/lib must hold logback-classic)");
        }
        FailureCauses causes = new FailureCauses();
        causes.setName("loadlab-failure-causes");
        causes.setContext(context);
        causes.start();
        context.addTurboFilter(causes);
        return causes;
    }

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
        // Called for every logging call of the JVM: a level and a name comparison, nothing more, for all others.
        if (level != Level.DEBUG || !logger.getName().equals(LISTENER_LOGGER)) {
            return FilterReply.NEUTRAL;
        }
        if (format == null) {
            return FilterReply.ACCEPT; // isDebugEnabled(): let Gatling make the call that carries the throwable
        }
        Long user = userOf(format);
        if (user != null && t != null) {
            byUser.put(user, ErrorKind.ofCause(t));
        }
        return FilterReply.NEUTRAL; // printed only if someone configured this logger at DEBUG
    }

    /** The kind recorded for this user's failed request, once; null when none was logged. */
    public ErrorKind take(long userId) {
        return byUser.remove(userId);
    }

    /** Failures recorded and not taken yet (users stopped between the failure and their next action). */
    int pending() {
        return byUser.size();
    }

    static Long userOf(String message) {
        int at = message.lastIndexOf(USER_MARK);
        if (at < 0) {
            return null;
        }
        try {
            return Long.parseLong(message.substring(at + USER_MARK.length()).trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
