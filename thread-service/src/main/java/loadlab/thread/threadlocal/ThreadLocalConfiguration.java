package loadlab.thread.threadlocal;

import loadlab.thread.api.WorkloadPaths;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

@Configuration(proxyBeanMethods = false)
class ThreadLocalConfiguration {

    // Right after the request counter, so the build is inside what inflight and the request's latency cover.
    @Bean
    FilterRegistrationBean<PerThreadObjectFilter> perThreadObjectFilterRegistration(PerThreadObject object) {
        FilterRegistrationBean<PerThreadObjectFilter> registration =
                new FilterRegistrationBean<>(new PerThreadObjectFilter(object));
        registration.addUrlPatterns(WorkloadPaths.ALL);
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 1);
        return registration;
    }
}
