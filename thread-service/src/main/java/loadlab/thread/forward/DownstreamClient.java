package loadlab.thread.forward;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import org.springframework.core.env.Environment;

/**
 * Which HTTP client the downstream call goes through ({@code delay-service.client}, the harness's CLIENT), each as
 * Spring Boot's {@code ClientHttpRequestFactoryBuilder} builds it: the JDK's HttpClient (no pool cap), Apache
 * HttpClient 5 (5 connections per route, 25 in all) or Reactor Netty (2 x max(cores, 8) connections and a bounded
 * queue of pending acquires). {@code delay-service.client-pool} (CLIENT_POOL) sets the connections per route of a
 * pooled client; absent, the client keeps its own default.
 */
enum DownstreamClient {
    JDK,
    APACHE,
    REACTOR;

    static final String PROPERTY = "delay-service.client";

    static final String POOL_PROPERTY = "delay-service.client-pool";

    static final String ALLOWED = Arrays.stream(values()).map(DownstreamClient::id).collect(Collectors.joining(", "));

    String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Absent means jdk, the client the service used before it could choose. */
    static DownstreamClient of(Environment environment) {
        String raw = environment.getProperty(PROPERTY);
        if (raw == null || raw.isBlank()) {
            return JDK;
        }
        for (DownstreamClient client : values()) {
            if (client.id().equalsIgnoreCase(raw.trim())) {
                return client;
            }
        }
        throw new InvalidClientSettingException(
                "Invalid " + PROPERTY + " '" + raw + "': allowed values are " + ALLOWED);
    }

    /** The connections per route asked for, or null for the client's own default. */
    Integer pool(Environment environment) {
        String raw = environment.getProperty(POOL_PROPERTY);
        if (raw == null || raw.isBlank()) {
            return null;
        }
        int pool;
        try {
            pool = Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
            pool = 0;
        }
        if (pool < 1) {
            throw new InvalidClientSettingException(
                    "Invalid " + POOL_PROPERTY + " '" + raw + "': allowed values are whole numbers >= 1, or none");
        }
        if (this == JDK) {
            throw new InvalidClientSettingException("Invalid " + POOL_PROPERTY + " '" + raw + "' with " + PROPERTY
                    + "=jdk: the JDK's HttpClient has no pool cap; allowed: " + PROPERTY + "=apache or reactor");
        }
        return pool;
    }
}
