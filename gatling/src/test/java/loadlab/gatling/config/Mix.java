package loadlab.gatling.config;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * APP_REQUESTS as the harness resolved it ({@code loadlab.mix}, base64 JSON written by harness/loadlab/core/mix.py,
 * which owns the CSV's rule): each kind with its share in hundredths of a percent, its method, its path and body
 * with Gatling's {@code #{pN}} in place of each placeholder, and the feeder of each {@code pN}. Nothing here parses
 * the CSV or a placeholder: MixTest holds this reading to harness/tests/data/mix/resolved.json, which test_mix.py
 * holds the Python side to.
 */
public record Mix(List<Kind> kinds, List<Feeder> feeders) {

    static final String PROPERTY = "loadlab.mix";

    /** One kind of request; {@code hundredths} of all requests (the kinds sum to 10,000). */
    public record Kind(String name, int line, int hundredths, String method, String path, String body,
            String contentType, String label) {

        public boolean hasBody() {
            return !body.isEmpty();
        }
    }

    /** A placeholder's values: a range (uniform or Zipf, s = 1, the low end asked most) or a list. */
    public record Feeder(String attr, long from, long to, boolean zipf, List<String> values) {

        /** Gatling feeds one record per user, drawn at random (an endless iterator: never exhausted). */
        public Iterator<Map<String, Object>> iterator() {
            if (!values.isEmpty()) {
                return new Draws(() -> values.get(ThreadLocalRandom.current().nextInt(values.size())));
            }
            if (zipf) {
                double[] cumulative = zipfCumulative((int) (to - from + 1));
                return new Draws(() -> from + zipfRank(cumulative, ThreadLocalRandom.current().nextDouble()));
            }
            return new Draws(() -> ThreadLocalRandom.current().nextLong(from, to + 1));
        }

        private final class Draws implements Iterator<Map<String, Object>> {
            private final java.util.function.Supplier<Object> draw;

            Draws(java.util.function.Supplier<Object> draw) {
                this.draw = draw;
            }

            @Override
            public boolean hasNext() {
                return true;
            }

            @Override
            public Map<String, Object> next() {
                return Map.of(attr, draw.get());
            }
        }
    }

    /** No mix: the single request of the scenario or APP_PATH. */
    public static Mix none() {
        return new Mix(List.of(), List.of());
    }

    public boolean isEmpty() {
        return kinds.isEmpty();
    }

    public static Mix fromSystemProperty() {
        String value = System.getProperty(PROPERTY, "");
        return value.isBlank() ? none() : fromBase64(value);
    }

    static Mix fromBase64(String value) {
        try {
            return fromJson(new String(Base64.getDecoder().decode(value.trim()), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(PROPERTY + " is not base64 (" + e.getMessage() + ")");
        }
    }

    static Mix fromJson(String json) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(PROPERTY + " is not the harness's resolved mix: " + e.getMessage());
        }
        List<Kind> kinds = new ArrayList<>();
        int sum = 0;
        for (JsonNode k : root.path("kinds")) {
            kinds.add(new Kind(k.path("name").asText(), k.path("line").asInt(), k.path("hundredths").asInt(),
                    k.path("method").asText(), k.path("path").asText(), k.path("body").asText(""),
                    k.path("contentType").asText(""), k.path("label").asText()));
            sum += k.path("hundredths").asInt();
        }
        if (kinds.isEmpty() || sum != 10_000) {
            throw new IllegalArgumentException(PROPERTY + " has " + kinds.size() + " kinds summing to " + sum
                    + " hundredths of a percent; allowed: one or more summing to 10000");
        }
        List<Feeder> feeders = new ArrayList<>();
        for (JsonNode f : root.path("feeders")) {
            List<String> values = new ArrayList<>();
            f.path("values").forEach(v -> values.add(v.asText()));
            feeders.add(new Feeder(f.path("attr").asText(), f.path("from").asLong(), f.path("to").asLong(),
                    f.path("zipf").asBoolean(), List.copyOf(values)));
        }
        return new Mix(List.copyOf(kinds), List.copyOf(feeders));
    }

    /** Zipf (s = 1) over ranks 1..n: the cumulative weights, normalised, for an inverse-CDF draw. */
    static double[] zipfCumulative(int n) {
        double[] c = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += 1.0 / (i + 1);
            c[i] = sum;
        }
        for (int i = 0; i < n; i++) {
            c[i] /= sum;
        }
        return c;
    }

    /** The 0-based rank whose cumulative weight first reaches u (u in [0, 1)). */
    static int zipfRank(double[] cumulative, double u) {
        int i = java.util.Arrays.binarySearch(cumulative, u);
        return Math.min(i >= 0 ? i : -i - 1, cumulative.length - 1);
    }
}
