package loadlab.delay.downstream;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What goes into the served log: the answers the service under test got, not the harness's own probes. */
class ServedDelaysTests {

    @TempDir
    Path tmp;

    @Test
    void withADrawnDelayTheDelayPathsProbeAnswersAreNotServedAnswers() throws Exception {
        assertThat(servedCount("lognormal")).isEqualTo(1);
    }

    @Test
    void withAConstantDelayTheDelayPathIsTheDownstream() throws Exception {
        assertThat(servedCount(DelayDistribution.CONSTANT)).isEqualTo(2);
    }

    /** One drawn answer and one of /delay?ms=N, recorded in a second that then ends: the `served` answers logged. */
    private long servedCount(String dist) throws IOException, InterruptedException {
        Path log = tmp.resolve(dist + ".hlog");
        ServedDelays served = new ServedDelays(
                new DownstreamProperties(dist, 10, 50, 0, 0, "", 0, 0, "", log.toString()));
        long second = System.currentTimeMillis() / 1000;
        served.record(System.nanoTime());
        served.recordDelayPath(System.nanoTime());
        // the log holds whole seconds: wait for this one to end (an order of events, not a duration)
        while (System.currentTimeMillis() / 1000 == second) {
            Thread.sleep(20);
        }
        served.destroy();
        long count = 0;
        HistogramLogReader reader = new HistogramLogReader(log.toFile());
        for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram()) {
            if ("served".equals(h.getTag())) {
                count += ((Histogram) h).getTotalCount();
            }
        }
        reader.close();
        return count;
    }
}
