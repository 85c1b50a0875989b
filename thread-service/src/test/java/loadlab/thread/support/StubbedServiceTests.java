package loadlab.thread.support;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A {@link ServiceTests} whose delay-service is a {@link DelayServiceStub} of its own: started with the test class's
 * context, reset before each test, stopped after its last test. Test classes run one after another, so one static
 * field serves them all.
 */
public abstract class StubbedServiceTests extends ServiceTests {

    protected static DelayServiceStub stub;

    @DynamicPropertySource
    static void downstream(DynamicPropertyRegistry registry) {
        stub = DownstreamStub.serve(DelayServiceStub.start(), registry);
    }

    @AfterAll
    static void stopStub() {
        stub = DownstreamStub.stop(stub);
    }

    @BeforeEach
    void resetStub() {
        stub.reset();
    }
}
