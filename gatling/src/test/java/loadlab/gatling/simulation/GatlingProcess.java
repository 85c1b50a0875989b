package loadlab.gatling.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import loadlab.gatling.config.HarnessThresholds;
import loadlab.gatling.config.LoadConfig;

/**
 * The real simulation in a real Gatling, started as the harness starts it on a host ({@code java @jvm.options ...
 * io.gatling.app.Gatling}), for tests that must see what Gatling itself does (its injection, its HTTP client).
 */
final class GatlingProcess {

    private GatlingProcess() {
    }

    /**
     * Runs the simulation with these {@code loadlab.*} properties (without the prefix; outDir is set here) and the
     * health rule's thresholds as the harness passes them ({@link HarnessThresholds}) where these give none; returns
     * the raw files' folder. Gatling's console output is in {@code tmp/out.txt}.
     */
    static Path run(Path tmp, Map<String, Object> properties) throws Exception {
        Map<String, Object> all = new LinkedHashMap<>(HarnessThresholds.properties());
        all.putAll(properties);
        int exit = exitCode(tmp, all);
        assertEquals(0, exit, "gatling exit code; output:\n" + output(tmp));
        return rawFiles(tmp);
    }

    /** Runs the simulation with exactly these properties (outDir added) and returns its exit code. */
    static int exitCode(Path tmp, Map<String, Object> properties) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        // A smaller heap, and the client compiler only: these runs last seconds at a few requests per second, where
        // the optimizing compiler's work is most of Gatling's CPU (a run costs about 40% less); what Gatling does is
        // the same.
        List<String> cmd = new ArrayList<>(List.of(java, "@jvm.options", "-Xms256m", "-Xmx512m",
                "-XX:TieredStopAtLevel=1"));
        properties.forEach((k, v) -> cmd.add("-D" + LoadConfig.PREFIX + k + "=" + v));
        cmd.add("-D" + LoadConfig.PREFIX + "outDir=" + rawFiles(tmp));
        cmd.addAll(List.of("-cp", classpath, "io.gatling.app.Gatling", "-s", ForwardSimulation.class.getName(), "-rf",
                tmp.resolve("gatling").toString(), "-nr"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(tmp.resolve("out.txt").toFile())
                .start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
        }
        return p.exitValue();
    }

    static Path rawFiles(Path tmp) {
        return tmp.resolve("raw");
    }

    static String output(Path tmp) throws java.io.IOException {
        return Files.readString(tmp.resolve("out.txt"));
    }
}
