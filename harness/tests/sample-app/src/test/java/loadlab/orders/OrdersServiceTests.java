package loadlab.orders;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** A started app (real port) whose backend is a stub; a test-only endpoint names the thread serving a request. */
abstract class OrdersServiceTests {

    static final BackendStub BACKEND = BackendStub.start();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void backend(DynamicPropertyRegistry registry) {
        registry.add("orders.backend-url", BACKEND::url);
    }

    HttpResponse<String> get(String path) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20)).build();
        try {
            return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("GET " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The thread that served this request, as {@code virtual name}; test-only, the app exposes nothing like it. */
    String servingThread() {
        return get("/test/thread").body();
    }

    /** Found by the app's component scan (test classes share its package); never part of the jar. */
    @RestController
    static class ThreadEndpoint {

        @GetMapping("/test/thread")
        String thread() {
            Thread current = Thread.currentThread();
            return current.isVirtual() + " " + current.getName();
        }
    }
}
