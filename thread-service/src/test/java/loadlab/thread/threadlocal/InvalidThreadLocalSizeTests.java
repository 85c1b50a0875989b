package loadlab.thread.threadlocal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import loadlab.thread.ThreadServiceApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

@ExtendWith(OutputCaptureExtension.class)
class InvalidThreadLocalSizeTests {

    @Test
    void aNegativeSizeStopsStartupNamingTheSettingAndWhatIsAllowed(CapturedOutput output) {
        assertThatThrownBy(() -> SpringApplication.run(ThreadServiceApplication.class,
                        "--threadlocal.kb=-1", "--server.port=0", "--management.server.port=0").close())
                .isInstanceOf(Exception.class);
        assertThat(output).contains("threadlocal.kb=-1 is not allowed; allowed: 0..");
    }
}
