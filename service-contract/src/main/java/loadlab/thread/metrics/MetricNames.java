package loadlab.thread.metrics;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The fields of /actuator/loadlab, read from {@code loadlab/metrics.tsv}: the one list Java and Python share. Each
 * row is {@code name<TAB>kind<TAB>unit<TAB>meaning}; a malformed row stops the service at start-up, naming the line,
 * so the file the harness reads is the file the service was checked against.
 */
public final class MetricNames {

    public static final String RESOURCE = "loadlab/metrics.tsv";

    /** info: text read once; config: a setting read once; gauge: a value now; counter: cumulative since start. */
    public static final Set<String> KINDS = Set.of("info", "config", "gauge", "counter");

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*");

    public record Metric(String name, String kind, String unit, String meaning) {
    }

    private static final List<Metric> ALL = load();

    private MetricNames() {
    }

    /** Every field, in the file's order. */
    public static List<Metric> metrics() {
        return ALL;
    }

    /** Every field's name, in the file's order: the keys of /actuator/loadlab. */
    public static List<String> all() {
        return ALL.stream().map(Metric::name).toList();
    }

    private static List<Metric> load() {
        try (InputStream in = MetricNames.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the classpath");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The rows of a metrics.tsv text; blank lines and lines starting with # are comments. */
    static List<Metric> parse(String text) {
        List<Metric> metrics = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].stripTrailing();
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] cells = line.split("\t", -1);
            String where = RESOURCE + " line " + (i + 1) + " ('" + line + "'): ";
            if (cells.length != 4 || cells[2].isBlank() || cells[3].isBlank()) {
                throw new IllegalStateException(where + "expected 4 tab-separated cells: name, kind, unit, meaning");
            }
            Metric metric = new Metric(cells[0], cells[1], cells[2], cells[3]);
            if (!NAME.matcher(metric.name()).matches()) {
                throw new IllegalStateException(where + "the name must be lower_snake_case");
            }
            if (!KINDS.contains(metric.kind())) {
                throw new IllegalStateException(where + "the kind must be one of " + KINDS);
            }
            if (!seen.add(metric.name())) {
                throw new IllegalStateException(where + "'" + metric.name() + "' is listed twice");
            }
            metrics.add(metric);
        }
        return List.copyOf(metrics);
    }
}
