package loadlab.thread.mode;

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Maps {@code thread-mode} onto {@code spring.threads.virtual.enabled} before any auto-configuration reads it,
 * so Tomcat's executor, and everything else Boot switches with that flag, follows the one setting.
 * Runs after config data so application.yml, profiles and the environment have all been applied; its source
 * goes first, so thread-mode wins over a stray spring.threads.virtual.enabled.
 */
public class ThreadModeEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

    static final String SOURCE_NAME = "loadlabThreadMode";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        ThreadMode mode = ThreadMode.parse(environment.getProperty(ThreadMode.PROPERTY));
        environment.getPropertySources().addFirst(new MapPropertySource(SOURCE_NAME, Map.of(
                ThreadMode.PROPERTY, mode.id(),
                "spring.threads.virtual.enabled", String.valueOf(mode.virtualThreads()))));
    }

    @Override
    public int getOrder() {
        return ConfigDataEnvironmentPostProcessor.ORDER + 1;
    }
}
