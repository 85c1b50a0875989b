package loadlab.thread.fanout;

import loadlab.thread.support.DownstreamStub;
import loadlab.thread.support.ServiceTests;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A {@link ServiceTests} whose delay-service is a {@link FanOutStub} of its own, as StubbedServiceTests' is a
 * DelayServiceStub: started with the test class's context, reset before each test, stopped after its last test.
 */
public abstract class FanOutStubbedTests extends ServiceTests {

    protected static FanOutStub stub;

    @DynamicPropertySource
    static void downstream(DynamicPropertyRegistry registry) {
        stub = DownstreamStub.serve(FanOutStub.start(), registry);
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
