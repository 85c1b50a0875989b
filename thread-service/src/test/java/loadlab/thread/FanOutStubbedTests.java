package loadlab.thread;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A {@link ServiceTests} whose delay-service is a {@link FanOutStub} of its own, started with the test class's context
 * and stopped after its last test, forgetting every call before each test.
 */
public abstract class FanOutStubbedTests extends ServiceTests {

    protected static FanOutStub stub;

    @DynamicPropertySource
    static void downstream(DynamicPropertyRegistry registry) {
        stub = FanOutStub.start();
        registry.add("delay-service.url", stub::url);
    }

    @AfterAll
    static void stopStub() {
        if (stub != null) {
            stub.close();
            stub = null;
        }
    }

    @BeforeEach
    void resetStub() {
        stub.reset();
    }
}
