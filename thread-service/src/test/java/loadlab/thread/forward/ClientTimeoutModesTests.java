package loadlab.thread.forward;

import org.junit.jupiter.api.Nested;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.TestPropertySource;

/**
 * {@link ClientTimeoutContractTests} on platform threads, virtual threads, and virtual threads under the limit; and on
 * each pooled client (CLIENT=apache, reactor), whose timeouts must be the same.
 */
class ClientTimeoutModesTests {

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
            "thread-mode=platform", "management.server.port=0"})
    class Platform extends ClientTimeoutContractTests {
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
            "thread-mode=virtual", "management.server.port=0"})
    class Virtual extends ClientTimeoutContractTests {
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
            "thread-mode=virtual-limited", "delay-service.concurrency-limit=4", "management.server.port=0"})
    class VirtualLimited extends ClientTimeoutContractTests {
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
            "thread-mode=platform", "delay-service.client=apache", "management.server.port=0"})
    class ApacheClient extends ClientTimeoutContractTests {
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
            "thread-mode=virtual", "delay-service.client=reactor", "management.server.port=0"})
    class ReactorClient extends ClientTimeoutContractTests {
    }

    /** A refused connection is a 502 on every client, never a timeout nor a full pool. */
    @Nested
    @TestPropertySource(properties = "delay-service.client=apache")
    class ApacheRefused extends DelayServiceDownContractTests {
    }

    @Nested
    @TestPropertySource(properties = "delay-service.client=reactor")
    class ReactorRefused extends DelayServiceDownContractTests {
    }
}
