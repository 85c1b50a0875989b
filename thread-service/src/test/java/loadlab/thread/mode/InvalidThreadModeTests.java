package loadlab.thread.mode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import loadlab.thread.ThreadServiceApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

@ExtendWith(OutputCaptureExtension.class)
class InvalidThreadModeTests {

    private static final String REFUSAL =
            "Invalid thread-mode 'green': allowed values are platform, virtual, virtual-limited";

    @Test
    void unknownModeStopsStartupWithOneClearLine(CapturedOutput output) {
        // Command-line form, as a user types it; it must beat the thread-mode in application.yml.
        assertThatThrownBy(() -> SpringApplication.run(ThreadServiceApplication.class,
                        "--thread-mode=green", "--server.port=0", "--management.server.port=0").close())
                .hasMessage(REFUSAL);
        assertThat(output).contains(REFUSAL);
    }
}
