package loadlab.waits;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WaitsFileTests {

    @TempDir
    Path dir;

    @Test
    void writesEachStackOnceAndEachSecondsCountsWhenItCloses() throws Exception {
        Path path = dir.resolve("raw/waits.tsv");
        SampledThread parked = new SampledThread("virtual", "WAITING", "java.util.concurrent.Semaphore$NonfairSync",
                "java.lang.VirtualThread.run;app.Handler.call;java.util.concurrent.Semaphore.acquire");
        SampledThread running =
                new SampledThread("virtual-mounted", "RUNNABLE", "-", "java.lang.VirtualThread.run;a.B.c");
        try (WaitsFile file = new WaitsFile(path, "periodMs=500")) {
            file.add(100, List.of(parked, parked, running), 3_000_000);
            file.add(100, List.of(parked), 1_000_000);
            file.add(101, List.of(parked), 1_000_000);
            file.stopped(102, "java.lang.IllegalStateException: gone");
        }
        List<String> lines = Files.readAllLines(path);
        assertEquals(List.of(
                "# loadlab-waits 1 periodMs=500",
                "K\t1\tjava.lang.VirtualThread.run;app.Handler.call;java.util.concurrent.Semaphore.acquire",
                "K\t2\tjava.lang.VirtualThread.run;a.B.c",
                "T\t100\t3\tvirtual\tWAITING\tjava.util.concurrent.Semaphore$NonfairSync\t1",
                "T\t100\t1\tvirtual-mounted\tRUNNABLE\t-\t2",
                "S\t100\t2\t4\t4",
                "T\t101\t1\tvirtual\tWAITING\tjava.util.concurrent.Semaphore$NonfairSync\t1",
                "S\t101\t1\t1\t1",
                "E\t102\tjava.lang.IllegalStateException: gone"), lines);
    }
}
