package loadlab.reactive;

import loadlab.thread.api.ProblemHandler;
import loadlab.thread.cpu.CpuProperties;
import loadlab.thread.cpu.CpuWork;
import loadlab.thread.db.DbProperties;
import loadlab.thread.fanout.FanOutParameters;
import loadlab.thread.forward.DelayParameter;
import loadlab.thread.forward.DelayProperties;
import loadlab.thread.forward.DelayServiceProperties;
import loadlab.thread.metrics.DownstreamCallStats;
import loadlab.thread.metrics.FanOutSetup;
import loadlab.thread.metrics.JvmProbe;
import loadlab.thread.metrics.LoadlabEndpoint;
import loadlab.thread.threadlocal.PerThreadObject;
import loadlab.thread.threadlocal.ThreadLocalProperties;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Import;

/**
 * The thread-service's requests in the asynchronous shape: WebFlux on Netty's event loops, the delay-service through
 * WebClient, PostgreSQL through R2DBC. What does not depend on the web stack is the code both services share
 * (service-contract), imported here: the parameters and their limits, the problem answers, the CPU work, the
 * ThreadLocal object, the settings and /actuator/loadlab with its metric names.
 */
@SpringBootApplication
@EnableConfigurationProperties({DelayServiceProperties.class, DelayProperties.class, CpuProperties.class,
    DbProperties.class, ThreadLocalProperties.class})
@Import({ProblemHandler.class, DelayParameter.class, CpuWork.class, PerThreadObject.class, DownstreamCallStats.class,
    JvmProbe.class, LoadlabEndpoint.class, FanOutParameters.class, FanOutSetup.class})
public class ReactiveServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(ReactiveServiceApplication.class, args);
    }
}
