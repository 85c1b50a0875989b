package loadlab.thread;

import org.junit.jupiter.api.AfterAll;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A {@link ServiceTests} whose delay-service is a {@link DelayServiceStub} of its own: started with the test class's
 * context, stopped after its last test. Test classes run one after another, so one static field serves them all.
 */
public abstract class StubbedServiceTests extends ServiceTests {

    protected static DelayServiceStub stub;

    @DynamicPropertySource
    static void downstream(DynamicPropertyRegistry registry) {
        stub = DelayServiceStub.start();
        registry.add("delay-service.url", stub::url);
    }

    @AfterAll
    static void stopStub() {
        if (stub != null) {
            stub.close();
            stub = null;
        }
    }
}
