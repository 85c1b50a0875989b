package loadlab.thread.forward;

import loadlab.thread.metrics.DownstreamCallStats;
import loadlab.thread.mode.ThreadMode;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.resilience.InvocationRejectedException;
import org.springframework.resilience.annotation.EnableResilientMethods;

/**
 * Which downstream call the requests make: the plain client, or in virtual-limited mode the same client under
 * {@code @ConcurrencyLimit} ({@link ConcurrencyLimitedCall}, proxied by Spring: {@link EnableResilientMethods}), its
 * rejections counted and answered as {@link ConcurrencyLimitException}.
 */
@Configuration(proxyBeanMethods = false)
@EnableResilientMethods
class DownstreamCallConfiguration {

    /** virtual-limited's limit: calls to the delay-service at once (the harness's VIRTUAL_LIMIT). */
    static final String LIMIT_PROPERTY = "delay-service.concurrency-limit";

    @Bean
    ConcurrencyLimitedCall concurrencyLimitedCall(DelayServiceClient client) {
        return new ConcurrencyLimitedCall(client);
    }

    @Bean
    DownstreamCall downstreamCall(DelayServiceClient client, ConcurrencyLimitedCall limited, Environment environment,
            DownstreamCallStats stats) {
        if (ThreadMode.of(environment) != ThreadMode.VIRTUAL_LIMITED) {
            return client::delay;
        }
        int limit = limit(environment);
        stats.limitedTo(limit);
        return call -> {
            try {
                return limited.delay(call);
            } catch (InvocationRejectedException e) {
                stats.recordRejection();
                throw new ConcurrencyLimitException(limit, e);
            }
        };
    }

    private static int limit(Environment environment) {
        String raw = environment.getProperty(LIMIT_PROPERTY);
        try {
            int limit = Integer.parseInt(raw == null ? "" : raw.trim());
            if (limit >= 1) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(LIMIT_PROPERTY + " must be a whole number >= 1 in "
                + ThreadMode.VIRTUAL_LIMITED.id() + " mode, got '" + raw + "'");
    }
}
