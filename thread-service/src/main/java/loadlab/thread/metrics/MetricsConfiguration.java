package loadlab.thread.metrics;

import loadlab.thread.api.WorkloadPaths;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

@Configuration(proxyBeanMethods = false)
class MetricsConfiguration {

    @Bean
    ForwardRequestCounter forwardRequestCounter() {
        return new ForwardRequestCounter();
    }

    // First in the chain, so inflight covers everything the request thread does for a workload request.
    @Bean
    FilterRegistrationBean<ForwardRequestCounter> forwardRequestCounterRegistration(ForwardRequestCounter counter) {
        FilterRegistrationBean<ForwardRequestCounter> registration = new FilterRegistrationBean<>(counter);
        registration.addUrlPatterns(WorkloadPaths.ALL);
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }
}
