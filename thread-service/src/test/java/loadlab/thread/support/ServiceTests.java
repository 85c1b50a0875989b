package loadlab.thread.support;

import java.util.Map;

import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

/**
 * A thread-service started for the test class on random ports (each subclass gives its {@code @SpringBootTest}
 * properties, with {@code management.server.port=0}) and closed after it.
 */
@DirtiesContext
public abstract class ServiceTests {

    @LocalServerPort
    protected int port;

    @LocalManagementPort
    protected int managementPort;

    /** GET /actuator/loadlab now. */
    protected Map<String, Object> sample() {
        return Http.json(Http.get(managementPort, "/actuator/loadlab"));
    }

    /** One number of /actuator/loadlab now. */
    protected long metric(String name) {
        return ((Number) sample().get(name)).longValue();
    }
}
