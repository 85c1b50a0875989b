package loadlab.gatling.recorder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.gatling.http.client.impl.PrematureCloseException;
import io.gatling.http.client.impl.RequestTimeoutException;
import io.netty.channel.ConnectTimeoutException;

class ErrorKindTest {

    @Test
    void theListIsTheOnePublishedInSummaryJson() {
        // These ids are public (summary.json errors_by_kind, ../shared/CONTRACT.md): renaming one breaks readers.
        assertEquals(List.of("connect_refused", "connect_reset", "connect_timeout", "timeout_injector", "status_502",
                "status_503", "status_504", "status_4xx", "status_5xx", "other"), ErrorKind.ids());
        assertEquals(ErrorKind.ids(), List.copyOf(ErrorKind.meanings().keySet()));
        assertTrue(ErrorKind.meanings().values().stream().noneMatch(String::isBlank));
        assertEquals(ErrorKind.values().length, new HashSet<>(ErrorKind.ids()).size());
    }

    @Test
    void thePythonTestsSyntheticRunsUseThisList() throws Exception {
        // harness/tests/support/synthrun.py writes meta.json error_kinds the way this simulation does; a copy that
        // drifted would test the harness against kinds that no run produces.
        String py = Files.readString(Path.of("../harness/tests/support/synthrun.py"));
        Matcher list = Pattern.compile("ERROR_KINDS = \\[(.*?)\\]", Pattern.DOTALL).matcher(py);
        assertTrue(list.find(), "ERROR_KINDS in synthrun.py");
        List<String> ids = new ArrayList<>();
        Matcher id = Pattern.compile("\"([a-z0-9_]+)\"").matcher(list.group(1));
        while (id.find()) {
            ids.add(id.group(1));
        }
        assertEquals(ErrorKind.ids(), ids);
    }

    @ParameterizedTest
    @CsvSource({ "502, status_502", "503, status_503", "504, status_504", "500, status_5xx", "599, status_5xx",
            "400, status_4xx", "404, status_4xx", "429, status_4xx", "302, other", "201, other", "101, other" })
    void aResponseIsClassifiedByItsStatus(int status, String kind) {
        assertEquals(kind, ErrorKind.ofStatus(status).id());
        // A status wins over anything else known about the request.
        assertEquals(kind, ErrorKind.of(status, ErrorKind.TIMEOUT_INJECTOR, 60_000, 10_000).id());
    }

    // The exceptions and messages below are the ones Gatling 3.15.1's HTTP client failed with in real runs here
    // (epoll transport; FailureKindsGatlingTest reproduces them end to end).
    @Test
    void connectionRefused() {
        // io.netty.channel.AbstractChannel$AnnotatedConnectException (private) <- java.net.ConnectException
        ConnectException cause = new ConnectException("finishConnect(..) failed with error(-111): Connection refused");
        ConnectException annotated = new ConnectException(
                "finishConnect(..) failed with error(-111): Connection refused: /127.0.0.1:1");
        annotated.initCause(cause);
        assertEquals(ErrorKind.CONNECT_REFUSED, ErrorKind.ofCause(annotated));
        assertEquals(ErrorKind.CONNECT_REFUSED, ErrorKind.ofCause(new ConnectException("Connection refused")));
    }

    @Test
    void resetOrClosedBeforeAResponse() {
        // A server that reads the request and closes (FIN) or resets (RST), before or in the middle of its answer.
        assertEquals(ErrorKind.CONNECT_RESET, ErrorKind.ofCause(PrematureCloseException.INSTANCE));
        // NIO transport and the epoll transport's read error.
        assertEquals(ErrorKind.CONNECT_RESET, ErrorKind.ofCause(new SocketException("Connection reset")));
        assertEquals(ErrorKind.CONNECT_RESET, ErrorKind.ofCause(
                new IOException("recvAddress(..) failed with error(-104): Connection reset by peer")));
    }

    @Test
    void connectTimeout() {
        assertEquals(ErrorKind.CONNECT_TIMEOUT,
                ErrorKind.ofCause(new ConnectTimeoutException("connection timed out after 1000 ms: /127.0.0.1:34057")));
        // The kernel giving up after its SYN retries.
        assertEquals(ErrorKind.CONNECT_TIMEOUT, ErrorKind.ofCause(
                new ConnectException("finishConnect(..) failed with error(-110): Connection timed out")));
    }

    @Test
    void theInjectorsOwnRequestTimeout() throws Exception {
        assertEquals(ErrorKind.TIMEOUT_INJECTOR, ErrorKind.ofCause(requestTimeout(1500)));
    }

    @Test
    void anythingElseIsOther() {
        assertEquals(ErrorKind.OTHER,
                ErrorKind.ofCause(new UnknownHostException("no-such-host.invalid: Name or service not known")));
        assertEquals(ErrorKind.OTHER, ErrorKind.ofCause(new IllegalStateException("boom")));
        assertEquals(ErrorKind.OTHER, ErrorKind.ofCause(new ConnectException("Network is unreachable")));
    }

    @Test
    void theCauseIsFoundDownTheChain() throws Exception {
        assertEquals(ErrorKind.TIMEOUT_INJECTOR,
                ErrorKind.ofCause(new IllegalStateException("wrapped", requestTimeout(10_000))));
    }

    @Test
    void withoutResponseTheCapturedCauseDecides() {
        assertEquals(ErrorKind.CONNECT_REFUSED, ErrorKind.of(null, ErrorKind.CONNECT_REFUSED, 3, 10_000));
        assertEquals(ErrorKind.CONNECT_RESET, ErrorKind.of(null, ErrorKind.CONNECT_RESET, 9_999, 10_000));
    }

    @Test
    void withoutResponseNorCauseOnlyTheRequestTimeoutIsNamed() {
        // The harness's own limit must never read as the service's failure, even when the cause was not captured.
        assertEquals(ErrorKind.TIMEOUT_INJECTOR, ErrorKind.of(null, null, 9_990, 10_000));
        assertEquals(ErrorKind.TIMEOUT_INJECTOR, ErrorKind.of(null, null, 10_040, 10_000));
        assertEquals(ErrorKind.OTHER, ErrorKind.of(null, null, 1_500, 10_000));
    }

    /** The client's own exception (package-private constructor), with the message it builds. */
    private static Throwable requestTimeout(long ms) throws Exception {
        Constructor<RequestTimeoutException> c = RequestTimeoutException.class.getDeclaredConstructor(long.class,
                InetSocketAddress.class);
        c.setAccessible(true);
        RequestTimeoutException e = c.newInstance(ms, new InetSocketAddress("127.0.0.1", 46407));
        assertEquals("Request timeout to 127.0.0.1/127.0.0.1:46407 after " + ms + " ms", e.getMessage());
        return e;
    }
}
