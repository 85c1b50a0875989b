package loadlab.thread.metrics;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The field names of /actuator/loadlab, read from {@code loadlab/metrics.tsv}: the one list Java and Python share. */
public final class MetricNames {

    public static final String RESOURCE = "loadlab/metrics.tsv";

    private MetricNames() {
    }

    public static List<String> all() {
        try (InputStream in = MetricNames.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the classpath");
            }
            List<String> names = new ArrayList<>();
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    names.add(line.split("\t", 2)[0].trim());
                }
            }
            return Collections.unmodifiableList(names);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
