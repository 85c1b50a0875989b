package loadlab.reactive;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;

import loadlab.thread.forward.ForwardContractTests;
import loadlab.thread.support.Http;
import org.junit.jupiter.api.Test;

/** The thread-service's {@link ForwardContractTests}, run against this service, and what is particular to it. */
class ReactiveContractTests extends ForwardContractTests {

    @Override
    protected String mode() {
        return "reactive";
    }

    // Reactor Netty's own loops are reactor-http-<transport>-N (the jar), Boot's webflux-http-<transport>-N (these
    // tests): the harness's live-config check counts either by name (harness/loadlab/core/reactive.py).
    @Test
    void requestsAreServedOnNettysEventLoops() {
        assertThat((String) Http.json(Http.get(port, "/thread")).get("thread"))
            .containsPattern("\\b(reactor|webflux)-http-(epoll|nio|io_uring)-\\d+")
            .doesNotContain("VirtualThread").doesNotContain("-exec-");
    }

    @Test
    void loadlabReportsNoRequestPoolAndNoConnectionCap() {
        assertThat(sample()).containsEntry("tomcat_threads_max", -1).containsEntry("tomcat_threads_busy", -1)
            .containsEntry("tomcat_queue_size", -1).containsEntry("tomcat_max_connections", -1)
            .containsEntry("tomcat_connections", -1).containsEntry("db_pool_max", 10)
            .containsEntry("db_pool_active", -1);
    }

    @Test
    void pinnedHasNoReactiveFormAndIsAProblem404() {
        HttpResponse<String> response = Http.get(port, "/pinned?ms=1");
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(Http.contentType(response)).startsWith("application/problem+json");
        assertThat(stub.calls()).isZero();
    }
}
