package loadlab.thread.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The shared list of /actuator/loadlab fields: the shipped file is well-formed, and a malformed one is refused. */
class MetricNamesTests {

    @Test
    void theShippedListHasEveryRowWellFormed() {
        assertThat(MetricNames.metrics()).isNotEmpty().allSatisfy(metric -> {
            assertThat(metric.kind()).isIn(MetricNames.KINDS);
            assertThat(metric.unit()).isNotBlank();
            assertThat(metric.meaning()).isNotBlank();
        });
        // The names the harness already reads keep their spelling.
        assertThat(MetricNames.all()).contains("thread_mode", "tomcat_threads_max", "jvm_threads_live",
                "requests_total", "process_cpu_seconds", "db_pool_active", "db_pool_pending", "cpu_work_ms_total");
    }

    @Test
    void commentsAndBlankLinesAreSkipped() {
        assertThat(MetricNames.parse("# name\tkind\tunit\tmeaning\n\na_b\tgauge\tms\tsomething\n"))
                .containsExactly(new MetricNames.Metric("a_b", "gauge", "ms", "something"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "a_b\\tgauge\\tms|4 tab-separated cells",
        "a_b\\tgauge\\tms\\tx\\textra|4 tab-separated cells",
        "a_b\\tgauge\\t\\tx|4 tab-separated cells",
        "a_b\\ttimer\\tms\\tx|kind must be one of",
        "A-b\\tgauge\\tms\\tx|lower_snake_case",
        "a_b\\tgauge\\tms\\tx\\na_b\\tcounter\\tms\\ty|listed twice" })
    void aMalformedRowIsRefusedNamingItsLine(String text, String message) {
        assertThatThrownBy(() -> MetricNames.parse(text.replace("\\t", "\t").replace("\\n", "\n")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("metrics.tsv line ")
                .hasMessageContaining(message);
    }
}
