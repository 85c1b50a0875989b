package loadlab.thread;

import org.junit.jupiter.api.Nested;
import org.springframework.boot.test.context.SpringBootTest;

/** {@link ClientTimeoutContractTests} on platform threads, virtual threads, and virtual threads under the limit. */
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
}
