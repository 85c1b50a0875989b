package loadlab.delay.downstream;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;
import tools.jackson.databind.json.JsonMapper;

/**
 * DOWNSTREAM_STUBS: answers per path pattern and method, the first that matches wins; any other request gets
 * {@code {}}. The harness checks the user's stubs file, reads each body file into it and hands it over as
 * {@code downstream.stubs}, base64 of a JSON list of {@code {path, method, status, content_type, body}} (method null:
 * any), so no file has to reach the delay-service's host.
 */
record Stubs(List<Stub> stubs) {

    record Stub(PathPattern path, HttpMethod method, int status, String contentType, String body) {
        boolean matches(HttpMethod requestMethod, PathContainer requestPath) {
            return (method == null || method.equals(requestMethod)) && path.matches(requestPath);
        }
    }

    static final Stubs NONE = new Stubs(List.of());

    @SuppressWarnings("unchecked")
    static Stubs parse(String base64) {
        if (base64 == null || base64.isBlank()) {
            return NONE;
        }
        String json = new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
        List<Map<String, Object>> raw = JsonMapper.builder().build().readValue(json, List.class);
        PathPatternParser parser = PathPatternParser.defaultInstance;
        return new Stubs(raw.stream().map(s -> new Stub(parser.parse((String) s.get("path")),
                s.get("method") == null ? null : HttpMethod.valueOf((String) s.get("method")),
                ((Number) s.get("status")).intValue(), (String) s.get("content_type"), (String) s.get("body")))
                .toList());
    }

    /** The stub for this request, or null for the default {@code {}}. */
    Stub find(HttpMethod method, String path) {
        PathContainer container = PathContainer.parsePath(path);
        return stubs.stream().filter(s -> s.matches(method, container)).findFirst().orElse(null);
    }
}
