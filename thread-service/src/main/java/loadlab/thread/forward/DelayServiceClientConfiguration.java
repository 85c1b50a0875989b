package loadlab.thread.forward;

import java.net.http.HttpClient;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * The outbound client is the same in both thread modes, so only the request threads differ between runs.
 * JDK HttpClient: no per-host connection cap (the pool grows with concurrency, unlike Apache HttpClient's
 * 5 per route / 25 total), one selector thread for readiness only, and an explicit unbounded cached pool for
 * its completion work, so neither can become the limit the experiment is meant to find elsewhere.
 */
@Configuration(proxyBeanMethods = false)
class DelayServiceClientConfiguration {

    @Bean(destroyMethod = "shutdownNow")
    ExecutorService delayServiceHttpExecutor() {
        return Executors.newCachedThreadPool(Thread.ofPlatform().name("delay-service-http-", 0).daemon().factory());
    }

    // shutdownNow, not close(): close() waits for in-flight exchanges and would stretch graceful shutdown.
    @Bean(destroyMethod = "shutdownNow")
    HttpClient delayServiceHttpClient(DelayServiceProperties properties, ExecutorService delayServiceHttpExecutor) {
        return HttpClient.newBuilder()
                // The JDK client otherwise offers h2c upgrade on http://; the lab compares HTTP/1.1 services.
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(properties.callConnectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(delayServiceHttpExecutor)
                .build();
    }

    @Bean
    RestClient delayServiceRestClient(RestClient.Builder builder, HttpClient delayServiceHttpClient,
            DelayServiceProperties properties) {
        JdkClientHttpRequestFactory requestFactory = new JdkClientHttpRequestFactory(delayServiceHttpClient);
        requestFactory.setReadTimeout(properties.callTimeout());
        return builder.requestFactory(requestFactory).build();
    }
}
