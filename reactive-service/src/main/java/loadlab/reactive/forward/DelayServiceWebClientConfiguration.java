package loadlab.reactive.forward;

import io.netty.channel.ChannelOption;
import loadlab.thread.forward.DelayServiceProperties;
import loadlab.thread.metrics.DownstreamCallStats;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * The outbound client: Reactor Netty's, on the same event loops as the requests (no thread of its own per call).
 * Its connection pool is uncapped, as the thread-service's JDK HttpClient is: Reactor Netty's default pool holds
 * 2 x max(cores, 8) connections and queues the rest, a limit of its own that the thread-service does not have and
 * the comparison is not about.
 */
@Configuration(proxyBeanMethods = false)
class DelayServiceWebClientConfiguration {

    @Bean(destroyMethod = "dispose")
    ConnectionProvider delayServiceConnections() {
        return ConnectionProvider.builder("delay-service")
            .maxConnections(Integer.MAX_VALUE)
            .pendingAcquireMaxCount(-1)
            .build();
    }

    @Bean
    WebClient delayServiceWebClient(ConnectionProvider delayServiceConnections, DelayServiceProperties properties,
            DownstreamCallStats stats) {
        // The live config's client: this service ignores CLIENT (delay-service.client); its pool has no cap (-1).
        stats.usesClient("webclient", -1, -1);
        HttpClient http = HttpClient.create(delayServiceConnections)
            // HTTP/1.1 like the thread-service's client: the lab compares HTTP/1.1 services.
            .protocol(HttpProtocol.HTTP11)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, Math.toIntExact(properties.callConnectTimeout().toMillis()));
        // WebClient's own builder: Boot 4 configures one only with spring-boot-starter-webclient, and none of its
        // settings (codecs, observations) is wanted on this call.
        return WebClient.builder().clientConnector(new ReactorClientHttpConnector(http)).build();
    }
}
