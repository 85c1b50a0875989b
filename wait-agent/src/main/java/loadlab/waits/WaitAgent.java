package loadlab.waits;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code -javaagent:wait-agent.jar=file=PATH}: starts the sampler on a daemon platform thread of its own before the
 * application's main, and closes the file when the JVM exits. It changes no class and needs nothing from the app.
 */
public final class WaitAgent {

    private WaitAgent() {
    }

    /**
     * An agent that cannot start says why on the service's stderr and leaves the service to run without it: the
     * harness then finds no file and says the profile is missing, rather than a service that would not start.
     */
    public static void premain(String argument) {
        try {
            start(AgentOptions.parse(argument));
        } catch (RuntimeException failure) {
            System.err.println("wait-agent: not sampling: " + failure.getMessage());
        }
    }

    private static void start(AgentOptions options) {
        try {
            Path dumps = Files.createTempDirectory("loadlab-waits");
            WaitsFile file = new WaitsFile(options.file(), options.header());
            Thread sampler = Thread.ofPlatform().name(DumpSampler.THREAD_NAME).daemon()
                    .unstarted(new DumpSampler(file, options, dumps));
            Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> {
                sampler.interrupt();
                try {
                    sampler.join(2000);
                    file.close();
                    Files.deleteIfExists(dumps.resolve("dump.json"));
                    Files.deleteIfExists(dumps);
                } catch (IOException | InterruptedException ignored) {
                    // the JVM is exiting: what was written stays
                }
            }));
            sampler.start();
        } catch (IOException e) {
            throw new UncheckedIOException("wait-agent: cannot write " + options.file(), e);
        }
    }
}
