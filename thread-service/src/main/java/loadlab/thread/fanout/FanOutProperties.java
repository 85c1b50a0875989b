package loadlab.thread.fanout;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code fanout.pool} (the harness's FANOUT_POOL): platform mode's fan-out executor, in threads. The default is the
 * pool a team would size for the defaults, Tomcat's 200 request threads times 4 calls each; a smaller one shows the
 * executor as a second limit. Unused in the other modes, which have no such pool.
 */
@ConfigurationProperties("fanout")
public record FanOutProperties(@DefaultValue("800") int pool) {

    public FanOutProperties {
        if (pool < 1) {
            throw new IllegalArgumentException("fanout.pool must be a whole number >= 1, got " + pool);
        }
    }
}
