package loadlab.thread.metrics;

import org.springframework.stereotype.Component;

/**
 * Which fan-out shape the service runs ({@code platform-executor}, {@code structured-scope}, {@code virtual-executor};
 * {@code mono-zip} in the reactive service) and the executor's threads where it has one (null otherwise), set once
 * when the shape is chosen, for /actuator/loadlab.
 */
@Component
public class FanOutSetup {

    private volatile String shape = "none";

    private volatile Integer pool;

    public void runsAs(String shape, Integer pool) {
        this.shape = shape;
        this.pool = pool;
    }

    String shape() {
        return shape;
    }

    Integer pool() {
        return pool;
    }
}
