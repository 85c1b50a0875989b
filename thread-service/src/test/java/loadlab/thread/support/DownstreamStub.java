package loadlab.thread.support;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A stand-in delay-service on an ephemeral port, the one a test class's service calls ({@link DelayServiceStub}, the
 * fan-out's FanOutStub). Its test class ({@link StubbedServiceTests}, FanOutStubbedTests) starts it with its context
 * ({@link #serve}), forgets its calls before each test ({@link #reset}) and stops it after its last ({@link #stop}).
 */
public interface DownstreamStub extends AutoCloseable {

    /** The base URL the service under test calls ({@code delay-service.url}). */
    String url();

    /** Forgets every call and answers at once again, as freshly started. */
    void reset();

    @Override
    void close();

    /** Points the service about to start at {@code stub}; returns it. */
    static <S extends DownstreamStub> S serve(S stub, DynamicPropertyRegistry registry) {
        registry.add("delay-service.url", stub::url);
        return stub;
    }

    /** Stops {@code stub} when there is one; returns null, for the field that held it. */
    static <S extends DownstreamStub> S stop(S stub) {
        if (stub != null) {
            stub.close();
        }
        return null;
    }
}
