package loadlab.thread.forward;

import org.springframework.http.MediaType;

/** The downstream call a request makes (/forward, /pinned): plain, or under a concurrency limit (virtual-limited). */
@FunctionalInterface
interface DownstreamCall {

    record Reply(byte[] body, MediaType contentType) {
    }

    Reply delay(long ms);
}
