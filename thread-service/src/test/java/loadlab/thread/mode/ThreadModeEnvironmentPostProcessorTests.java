package loadlab.thread.mode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.mock.env.MockEnvironment;

class ThreadModeEnvironmentPostProcessorTests {

    private final ThreadModeEnvironmentPostProcessor processor = new ThreadModeEnvironmentPostProcessor();

    private MockEnvironment process(MockEnvironment environment) {
        processor.postProcessEnvironment(environment, new SpringApplication());
        return environment;
    }

    @Test
    void absentModeMeansPlatform() {
        MockEnvironment environment = process(new MockEnvironment());
        assertThat(environment.getProperty("thread-mode")).isEqualTo("platform");
        assertThat(environment.getProperty("spring.threads.virtual.enabled")).isEqualTo("false");
    }

    @Test
    void virtualEnablesVirtualThreadsAndIsNormalised() {
        MockEnvironment environment = process(new MockEnvironment().withProperty("thread-mode", " Virtual "));
        assertThat(environment.getProperty("thread-mode")).isEqualTo("virtual");
        assertThat(environment.getProperty("spring.threads.virtual.enabled")).isEqualTo("true");
    }

    @Test
    void modeWinsOverAStrayVirtualThreadsFlag() {
        MockEnvironment environment = process(new MockEnvironment()
                .withProperty("thread-mode", "platform")
                .withProperty("spring.threads.virtual.enabled", "true"));
        assertThat(environment.getProperty("spring.threads.virtual.enabled")).isEqualTo("false");
    }

    @Test
    void unknownModeNamesValueAndAllowedValues() {
        assertThatThrownBy(() -> process(new MockEnvironment().withProperty("thread-mode", "carrier")))
                .isInstanceOf(InvalidThreadModeException.class)
                .hasMessage("Invalid thread-mode 'carrier': allowed values are platform, virtual, virtual-limited");
    }

    @Test
    void virtualLimitedRunsOnVirtualThreads() {
        MockEnvironment environment = process(new MockEnvironment().withProperty("thread-mode", "virtual-limited"));
        assertThat(environment.getProperty("thread-mode")).isEqualTo("virtual-limited");
        assertThat(environment.getProperty("spring.threads.virtual.enabled")).isEqualTo("true");
    }
}
