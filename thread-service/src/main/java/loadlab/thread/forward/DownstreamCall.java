package loadlab.thread.forward;

import org.springframework.http.MediaType;

/**
 * The downstream call a request makes (/forward, /pinned, each call of /fanout): plain, or under a concurrency limit
 * (virtual-limited). Public: the fan-out's shapes make their calls through it, so every mode's limit applies to them.
 */
@FunctionalInterface
public interface DownstreamCall {

    record Reply(byte[] body, MediaType contentType) {
    }

    Reply delay(DelayCall call);
}
