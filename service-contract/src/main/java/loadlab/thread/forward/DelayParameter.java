package loadlab.thread.forward;

import loadlab.thread.api.MillisParameter;
import org.springframework.stereotype.Component;

/** The {@code ms} query parameter of /forward, /pinned and /db: required, 0..delay.max-ms. */
@Component
public class DelayParameter {

    static final String NAME = "ms";

    private final MillisParameter rule;

    DelayParameter(DelayProperties properties) {
        this.rule = MillisParameter.required(NAME, 0, properties.maxMs());
    }

    public long parse(String raw) {
        return rule.parse(raw);
    }
}
