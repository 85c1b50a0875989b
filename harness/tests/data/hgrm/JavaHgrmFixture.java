// Regenerates java.hgrm (stdout) and java.payload (stderr: the same histogram, encoded), written by HdrHistogram
// 2.2.2 itself, so the Python writer is held to Java's outputPercentileDistribution byte for byte:
//   java -cp ../../../../gatling/target/lib/HdrHistogram-2.2.2.jar JavaHgrmFixture.java > java.hgrm 2> java.payload
import org.HdrHistogram.Histogram;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Random;
public class JavaHgrmFixture {
    public static void main(String[] a) {
        Histogram h = new Histogram(1, 3_600_000, 3);
        Random r = new Random(42);
        for (int i = 0; i < 5000; i++) h.recordValue(200 + (long) (Math.abs(r.nextGaussian()) * 30));
        for (int i = 0; i < 40; i++) h.recordValue(1000 + r.nextInt(9000));
        h.recordValue(61_000);
        ByteBuffer b = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(b);
        byte[] bytes = new byte[n]; b.rewind(); b.get(bytes);
        System.err.println(Base64.getEncoder().encodeToString(bytes));
        h.outputPercentileDistribution(System.out, 5, 1.0);
    }
}
