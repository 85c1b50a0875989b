package loadlab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ErrorKindTest {

    // request timeout 10 s, connect timeout 2 s
    @ParameterizedTest
    @CsvSource(nullValues = "none", value = {
            "none, 3, connection_failed", // refused at once
            "none, 1500, connection_failed", // reset mid-request, before any timer
            "none, 1990, connect_timeout", // the connect timer, fired a little early
            "none, 2500, connect_timeout",
            "none, 9990, timeout_injector", // the injector's own request timeout: a harness limit
            "none, 10040, timeout_injector",
            "502, 5, status_502", "503, 300, status_503", "504, 30000, status_504",
            "500, 5, status_5xx", "599, 5, status_5xx", "400, 5, status_4xx", "404, 5, status_4xx",
            "302, 5, status_other", "201, 5, status_other" })
    void eachFailureHasOneKind(Integer status, long elapsedMs, String kind) {
        assertEquals(kind, ErrorKind.of(status, elapsedMs, 10_000, 2_000).id());
    }
}
