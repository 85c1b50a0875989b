package loadlab.orders;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/** The endpoints a mix of requests takes (harness/tests/data/sample-app-mix): a cheap read and a write with a body. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class CatalogTests extends OrdersServiceTests {

    @Test
    void aProductIsACheapRead() {
        HttpResponse<String> r = get("/products/42");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("\"sku\":\"SKU-42\"");
    }

    @Test
    void aCartLineIsCreatedFromItsJsonBodyAndABadOneIsRefused() {
        HttpResponse<String> created = post("/carts", "{\"customer\": 7, \"sku\": \"SKU-3\", \"quantity\": 2}");
        assertThat(created.statusCode()).isEqualTo(201);
        assertThat(created.body()).contains("\"customer\":7", "\"quantity\":2", "\"backendMs\":5");
        assertThat(post("/carts", "{\"customer\": 7, \"sku\": \"SKU-3\", \"quantity\": 0}").statusCode())
                .isEqualTo(400);
    }

    private HttpResponse<String> post(String path, String json) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build();
        try {
            return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                    .send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("POST " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
