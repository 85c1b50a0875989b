package loadlab.thread.fanout;

import loadlab.thread.forward.DownstreamCall;
import loadlab.thread.metrics.FanOutSetup;
import loadlab.thread.mode.ThreadMode;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Which fan-out shape the mode runs, each as a team would write it there: platform threads, a fixed executor of
 * {@code fanout.pool} threads; virtual threads, a structured task scope where the JVM can run one (JDK 25 with
 * {@code --enable-preview}), else a virtual-thread executor. Said once in the log and on /actuator/loadlab
 * ({@code fanout_shape}, {@code fanout_pool}), so a run's page tells which shape it measured.
 */
@Configuration(proxyBeanMethods = false)
class FanOutShapeConfiguration {

    private static final Log LOG = LogFactory.getLog(FanOutShapeConfiguration.class);

    @Bean
    FanOutShape fanOutShape(Environment environment, FanOutProperties properties, DownstreamCall downstream,
            FanOutSetup setup) {
        if (!ThreadMode.of(environment).virtualThreads()) {
            setup.runsAs(PlatformExecutorFanOut.ID, properties.pool());
            LOG.info("Fan-out shape: " + PlatformExecutorFanOut.ID + " (" + properties.pool() + " threads)");
            return new PlatformExecutorFanOut(properties.pool(), downstream);
        }
        StructuredScopeLoader.Loaded scope = StructuredScopeLoader.load(downstream);
        FanOutShape shape = scope.shape() != null ? scope.shape() : new VirtualExecutorFanOut(downstream);
        setup.runsAs(shape.id(), null);
        LOG.info("Fan-out shape: " + shape.id() + (scope.whyNot() == null ? "" : ", not structured-scope: "
                + scope.whyNot()));
        return shape;
    }
}
