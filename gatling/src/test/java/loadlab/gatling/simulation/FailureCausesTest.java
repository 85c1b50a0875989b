package loadlab.gatling.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;

import loadlab.gatling.recorder.ErrorKind;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.gatling.http.client.impl.PrematureCloseException;

/** The filter on its own logback context, driven the way Gatling 3.15's GatlingHttpListener logs a failure. */
class FailureCausesTest {

    private final LoggerContext context = new LoggerContext();
    private final FailureCauses causes = new FailureCauses();
    private final ListAppender<ILoggingEvent> printed = new ListAppender<>();
    private Logger listener;

    @BeforeEach
    void setUp() {
        causes.setContext(context);
        causes.start();
        context.addTurboFilter(causes);
        printed.setContext(context);
        printed.start();
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.WARN); // as logback-test.xml
        root.addAppender(printed);
        listener = context.getLogger(FailureCauses.LISTENER_LOGGER);
    }

    /** What the Scala macro expands {@code logger.debug(s"...", throwable)} to. */
    private void gatlingLogsAFailure(String requestName, long userId, Throwable t) {
        if (listener.isDebugEnabled()) {
            listener.debug("Request '" + requestName + "' failed for user " + userId, t);
        }
    }

    @Test
    void aFailureIsKeptUnderItsUserUntilTaken() {
        gatlingLogsAFailure("http", 42, new ConnectException("Connection refused"));
        gatlingLogsAFailure("db", 43, PrematureCloseException.INSTANCE);
        assertEquals(2, causes.pending());
        assertEquals(ErrorKind.CONNECT_RESET, causes.take(43));
        assertEquals(ErrorKind.CONNECT_REFUSED, causes.take(42));
        assertNull(causes.take(42), "taken once");
        assertNull(causes.take(7), "a user that did not fail");
        assertEquals(0, causes.pending());
    }

    @Test
    void nothingIsPrintedAndOtherLoggersAreUntouched() {
        gatlingLogsAFailure("http", 1, new ConnectException("Connection refused"));
        assertTrue(printed.list.isEmpty(), "the listener stays at its configured level");
        Logger other = context.getLogger("io.gatling.http.engine.tx.HttpTxExecutor");
        assertFalse(other.isDebugEnabled());
        other.debug("Request 'http' failed for user 5", new ConnectException("Connection refused"));
        assertNull(causes.take(5));
        other.warn("shown");
        assertEquals(1, printed.list.size());
    }

    @Test
    void gatlingsOwnLoggerNameIsTheScalaObjectsClass() {
        assertEquals("io.gatling.http.engine.GatlingHttpListener$", FailureCauses.LISTENER_LOGGER);
    }

    @Test
    void theUserIdIsTheMessagesLastWord() {
        assertEquals(12345L, FailureCauses.userOf("Request 'http' failed for user 12345"));
        assertEquals(9L, FailureCauses.userOf("Request 'a failed for user 3' failed for user 9"));
        assertNull(FailureCauses.userOf("Request 'http' failed"));
        assertNull(FailureCauses.userOf("Request 'http' failed for user x"));
    }
}
