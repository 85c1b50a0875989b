package loadlab.thread.threadlocal;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import loadlab.thread.support.Http;

/** A fixed batch of workload requests of every scenario but db, half of them at once; each must answer 200. */
final class WorkloadRequests {

    static final int COUNT = 24;

    private WorkloadRequests() {
    }

    static void ofEveryKind(int port) {
        List<HttpResponse<String>> answers = new ArrayList<>(Http.concurrently(COUNT / 2, port, "/forward?ms=20"));
        for (int i = 0; i < COUNT / 4; i++) {
            answers.add(Http.get(port, "/cpu?cpuMs=1"));
            answers.add(Http.get(port, "/pinned?ms=1"));
        }
        assertThat(answers).hasSize(COUNT).extracting(HttpResponse::statusCode).containsOnly(200);
    }
}
