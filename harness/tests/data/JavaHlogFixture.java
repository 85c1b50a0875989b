// Regenerates java-latency.hlog, the one fixture written by the real Java HistogramLogWriter (HdrHistogram 2.2.2),
// so the Python reader is tested against Java's exact line format, not against our own encoder:
//   java -cp ../../../gatling/target/lib/HdrHistogram-2.2.2.jar JavaHlogFixture.java > java-latency.hlog
// Values are milliseconds; second 1763730301 has ok = {200 x 90, 250 x 9, 900 x 1} and ko = {10000 x 2};
// second 1763730302 (auto-resizing histogram, as a recorder might use) has ok = {201 x 50, 4000 x 50}.
import java.io.PrintStream;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

public class JavaHlogFixture {
    public static void main(String[] args) {
        HistogramLogWriter writer = new HistogramLogWriter(new PrintStream(System.out));
        writer.outputLogFormatVersion();
        writer.outputStartTime(1763730301000L);
        writer.setBaseTime(0);
        writer.outputBaseTime(0);
        writer.outputLegend();

        Histogram ok1 = new Histogram(1, 3_600_000, 3);
        ok1.recordValueWithCount(200, 90);
        ok1.recordValueWithCount(250, 9);
        ok1.recordValue(900);
        write(writer, ok1, "ok", 1763730301L);

        Histogram ko1 = new Histogram(1, 3_600_000, 3);
        ko1.recordValueWithCount(10_000, 2);
        write(writer, ko1, "ko", 1763730301L);

        Histogram ok2 = new Histogram(3);
        ok2.recordValueWithCount(201, 50);
        ok2.recordValueWithCount(4000, 50);
        write(writer, ok2, "ok", 1763730302L);
    }

    private static void write(HistogramLogWriter writer, Histogram h, String tag, long second) {
        h.setStartTimeStamp(second * 1000);
        h.setEndTimeStamp(second * 1000 + 1000);
        h.setTag(tag);
        writer.outputIntervalHistogram(h);
    }
}
