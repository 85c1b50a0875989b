package loadlab.thread.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import com.jayway.jsonpath.JsonPath;

/** Plain JDK HTTP for the tests: real sockets, real headers, no Spring test client in between. */
public final class Http {

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private Http() {
    }

    public static HttpResponse<String> get(int port, String pathAndQuery) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
                .timeout(Duration.ofSeconds(20))
                .build();
        try {
            return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("GET " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * {@code count} GETs of the same path sent at once, each from its own platform thread (never competing with the
     * service's virtual threads for a carrier); their answers in order.
     */
    public static List<HttpResponse<String>> concurrently(int count, int port, String pathAndQuery) {
        try (ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().daemon().factory())) {
            List<Future<HttpResponse<String>>> calls = IntStream.range(0, count)
                    .mapToObj(i -> threads.submit(() -> get(port, pathAndQuery)))
                    .toList();
            return calls.stream().map(Http::join).toList();
        }
    }

    private static <T> T join(Future<T> future) {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static Map<String, Object> json(HttpResponse<String> response) {
        return JsonPath.parse(response.body()).read("$");
    }

    public static String contentType(HttpResponse<String> response) {
        return response.headers().firstValue("Content-Type").orElse("");
    }

    /**
     * The fields of an application/problem+json answer, after checking its status and its problem type
     * ({@code tag:loadlab,2026:problem/<slug>}, loadlab.thread.api.ProblemTypes).
     */
    public static Map<String, Object> problem(HttpResponse<String> response, int status, String typeSlug) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(contentType(response)).startsWith("application/problem+json");
        Map<String, Object> problem = json(response);
        assertThat(problem).containsEntry("type", "tag:loadlab,2026:problem/" + typeSlug);
        return problem;
    }
}
