package loadlab.thread.forward;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The workload under test: a request thread blocked on I/O for {@code ms}. Validation happens first, so a bad
 * {@code ms} never costs a downstream call.
 */
@RestController
class ForwardController {

    private final DelayParameter parameter;
    private final DelayServiceClient client;

    ForwardController(DelayParameter parameter, DelayServiceClient client) {
        this.parameter = parameter;
        this.client = client;
    }

    @GetMapping("/forward")
    ResponseEntity<byte[]> forward(@RequestParam(name = DelayParameter.NAME, required = false) String ms) {
        DelayServiceClient.Reply reply = client.delay(parameter.parse(ms));
        MediaType type = reply.contentType() != null ? reply.contentType() : MediaType.APPLICATION_JSON;
        return ResponseEntity.ok().contentType(type).body(reply.body());
    }
}
