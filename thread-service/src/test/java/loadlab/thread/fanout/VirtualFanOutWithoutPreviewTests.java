package loadlab.thread.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * {@link FanOutContractTests} on virtual threads in a JVM without {@code --enable-preview} (on JDK 25 the build runs
 * this class in a test JVM of its own without the flag; on JDK 21 every test JVM is one): the service starts all the
 * same and runs the virtual-thread executor, which cancels as the scope does.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "thread-mode=virtual", "management.server.port=0"})
class VirtualFanOutWithoutPreviewTests extends FanOutContractTests {

    @Override
    protected String shape() {
        return "virtual-executor";
    }

    @Test
    void runsWithoutThePreview() {
        assertThat(ManagementFactory.getRuntimeMXBean().getInputArguments()).doesNotContain("--enable-preview");
    }
}
