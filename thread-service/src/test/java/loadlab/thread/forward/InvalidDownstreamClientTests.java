package loadlab.thread.forward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;

import loadlab.thread.ThreadServiceApplication;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** A bad delay-service.client or delay-service.client-pool stops startup with one line naming it. */
@ExtendWith(OutputCaptureExtension.class)
class InvalidDownstreamClientTests {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--delay-service.client=okhttp | Invalid delay-service.client 'okhttp': allowed values are jdk, apache,"
            + " reactor",
        "--delay-service.client-pool=8 | Invalid delay-service.client-pool '8' with delay-service.client=jdk: the JDK's"
            + " HttpClient has no pool cap; allowed: delay-service.client=apache or reactor",
        "--delay-service.client=apache --delay-service.client-pool=0 | Invalid delay-service.client-pool '0': allowed"
            + " values are whole numbers >= 1, or none"})
    void aBadSettingStopsStartupWithOneClearLine(String settings, String refusal, CapturedOutput output) {
        String[] args = Stream.concat(Stream.of(settings.split(" ")),
                Stream.of("--server.port=0", "--management.server.port=0")).toArray(String[]::new);
        assertThatThrownBy(() -> SpringApplication.run(ThreadServiceApplication.class, args).close())
                .rootCause().hasMessage(refusal);
        assertThat(output).contains(refusal);
    }
}
