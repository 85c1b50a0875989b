package loadlab.gatling.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The mix as the harness resolved it (harness/tests/data/mix/resolved.json, which test_mix.py holds Python to). */
class MixTest {

    private static final Path RESOLVED = Path.of("..", "harness", "tests", "data", "mix", "resolved.json");

    private static Mix resolved() throws Exception {
        return Mix.fromJson(Files.readString(RESOLVED));
    }

    @Test
    void readsEveryKindWithItsShareMethodPathAndBodyAsThePythonSideWroteThem() throws Exception {
        Mix mix = resolved();
        assertEquals(List.of("orders", "hot", "cart"), mix.kinds().stream().map(Mix.Kind::name).toList());
        assertEquals(List.of(7000, 2000, 1000), mix.kinds().stream().map(Mix.Kind::hundredths).toList());
        Mix.Kind cart = mix.kinds().get(2);
        assertEquals("POST", cart.method());
        assertEquals("application/json", cart.contentType());
        assertTrue(cart.body().startsWith("{\"customer\": #{p0}"), cart.body());
        assertEquals("/orders/#{p1}?region=#{p2}", mix.kinds().get(1).path());
        assertEquals(List.of("eu-west", "us-east"), mix.feeders().get(2).values());
    }

    @Test
    void rangesDrawWithinTheirBoundsAndZipfAsksTheLowEndMost() throws Exception {
        Mix mix = resolved();
        Iterator<Map<String, Object>> uniform = mix.feeders().get(0).iterator();
        Iterator<Map<String, Object>> zipf = mix.feeders().get(1).iterator();
        Map<Object, Integer> counts = new HashMap<>();
        for (int i = 0; i < 20_000; i++) {
            long u = (Long) uniform.next().get("p0");
            assertTrue(u >= 1 && u <= 1000, "uniform " + u);
            long z = (Long) zipf.next().get("p1");
            assertTrue(z >= 1 && z <= 50, "zipf " + z);
            counts.merge(z, 1, Integer::sum);
        }
        // s = 1 over 50 ranks: rank 1 takes 1 / H(50) = 22% of the draws, rank 2 half that.
        double first = counts.get(1L) / 20_000.0;
        assertTrue(first > 0.19 && first < 0.25, "rank 1 share " + first);
        assertTrue(counts.get(1L) > 1.6 * counts.get(2L), counts.toString());
    }

    @Test
    void refusesAMixWhoseSharesDoNotAddUpToAllRequests() {
        String json = "{\"kinds\":[{\"name\":\"a\",\"hundredths\":9000,\"method\":\"GET\",\"path\":\"/a\"}]}";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Mix.fromJson(json));
        assertTrue(e.getMessage().contains("summing to 9000"), e.getMessage());
    }
}
