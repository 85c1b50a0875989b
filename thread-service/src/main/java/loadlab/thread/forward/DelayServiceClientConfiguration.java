package loadlab.thread.forward;

import java.net.http.HttpClient;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import loadlab.thread.metrics.DownstreamCallStats;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.core5.util.Timeout;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * The outbound client ({@link DownstreamClient}, {@code delay-service.client}) is the same in every thread mode, so
 * only the request threads differ between runs.
 * <ul>
 * <li>jdk (default): JDK HttpClient, no per-host connection cap (the pool grows with concurrency), one selector
 * thread for readiness only, and an explicit unbounded cached pool for its completion work, so neither can become the
 * limit the experiment is meant to find elsewhere.</li>
 * <li>apache, reactor: as Spring Boot's {@link ClientHttpRequestFactoryBuilder} builds them, their pools their own
 * (5 per route / 25 in all; 2 x max(cores, 8)) unless {@code delay-service.client-pool} sets the connections per
 * route.</li>
 * </ul>
 * Every client has the same limits: the connect timeout, the whole call's (read/response) timeout, and the wait for
 * a pooled connection, which is the connect timeout's (a connection, pooled or new, is had within it or not at all),
 * so no call waits without bound. A call that got no connection in time is a
 * {@link DownstreamException.Kind#POOL_FULL}.
 */
@Configuration(proxyBeanMethods = false)
class DelayServiceClientConfiguration {

    // Apache HttpClient 5's total when the per-route cap is set: at least its own default total.
    static final int APACHE_DEFAULT_TOTAL = PoolingHttpClientConnectionManager.DEFAULT_MAX_TOTAL_CONNECTIONS;

    @Bean(destroyMethod = "close")
    ClientSetup delayServiceClientSetup(Environment environment, DelayServiceProperties properties,
            DownstreamCallStats stats) {
        DownstreamClient client = DownstreamClient.of(environment);
        Integer pool = client.pool(environment);
        ClientSetup setup = switch (client) {
            case JDK -> jdk(properties);
            case APACHE -> apache(properties, pool);
            case REACTOR -> reactor(properties, pool);
        };
        stats.usesClient(client.id(), setup.perRoute(), setup.total());
        return setup;
    }

    @Bean
    RestClient delayServiceRestClient(RestClient.Builder builder, ClientSetup delayServiceClientSetup) {
        return builder.requestFactory(delayServiceClientSetup.requestFactory()).build();
    }

    private static ClientSetup jdk(DelayServiceProperties properties) {
        ExecutorService executor = Executors.newCachedThreadPool(
                Thread.ofPlatform().name("delay-service-http-", 0).daemon().factory());
        HttpClient http = HttpClient.newBuilder()
                // The JDK client otherwise offers h2c upgrade on http://; the lab compares HTTP/1.1 services.
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(properties.callConnectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(executor)
                .build();
        JdkClientHttpRequestFactory requestFactory = new JdkClientHttpRequestFactory(http);
        requestFactory.setReadTimeout(properties.callTimeout());
        // shutdownNow, not close(): close() waits for in-flight exchanges and would stretch graceful shutdown.
        return new ClientSetup(DownstreamClient.JDK, requestFactory, -1, -1, () -> {
            http.shutdownNow();
            executor.shutdownNow();
        });
    }

    private static ClientSetup apache(DelayServiceProperties properties, Integer pool) {
        HttpComponentsClientHttpRequestFactory requestFactory = ClientHttpRequestFactoryBuilder.httpComponents()
                .withConnectionManagerCustomizer(manager -> {
                    if (pool != null) {
                        manager.setMaxConnPerRoute(pool).setMaxConnTotal(Math.max(pool, APACHE_DEFAULT_TOTAL));
                    }
                })
                .withDefaultRequestConfigCustomizer(request -> request.setConnectionRequestTimeout(
                        Timeout.of(properties.callConnectTimeout())))
                .build(settings(properties));
        int perRoute = pool != null ? pool : PoolingHttpClientConnectionManager.DEFAULT_MAX_CONNECTIONS_PER_ROUTE;
        int total = pool != null ? Math.max(pool, APACHE_DEFAULT_TOTAL) : APACHE_DEFAULT_TOTAL;
        return new ClientSetup(DownstreamClient.APACHE, requestFactory, perRoute, total, requestFactory::destroy);
    }

    private static ClientSetup reactor(DelayServiceProperties properties, Integer pool) {
        // Reactor Netty's own pool (ConnectionProvider's defaults: 2 x max(cores, 8) connections, a queue of twice as
        // many pending acquires, the rest failed at once), its own rather than the shared global one so that the
        // wait for a connection gets the connect timeout like every other client.
        ConnectionProvider.Builder connections = ConnectionProvider.builder("delay-service")
                .pendingAcquireTimeout(properties.callConnectTimeout());
        if (pool != null) {
            connections.maxConnections(pool);
        }
        ConnectionProvider provider = connections.build();
        var requestFactory = ClientHttpRequestFactoryBuilder.reactor()
                .withHttpClientFactory(() -> reactor.netty.http.client.HttpClient.create(provider))
                .build(settings(properties));
        // One pool per remote address: no cap across routes (-1).
        return new ClientSetup(DownstreamClient.REACTOR, requestFactory, provider.maxConnections(), -1,
                provider::dispose);
    }

    private static HttpClientSettings settings(DelayServiceProperties properties) {
        return HttpClientSettings.defaults().withTimeouts(properties.callConnectTimeout(), properties.callTimeout());
    }
}
