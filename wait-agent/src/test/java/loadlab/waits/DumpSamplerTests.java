package loadlab.waits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DumpSamplerTests {

    @TempDir
    Path dir;

    @Test
    void seesEveryVirtualThreadParkedOnASemaphoreWithItsStack() throws Exception {
        Semaphore permits = new Semaphore(2);
        CountDownLatch end = new CountDownLatch(1);
        CountDownLatch holding = new CountDownLatch(2);
        List<Thread> started = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            started.add(Thread.ofVirtual().name("request-" + i).start(() -> {
                try {
                    permits.acquire();
                    holding.countDown();
                    end.await();
                    permits.release();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        holding.await();
        while (permits.getQueueLength() < 10) {
            Thread.sleep(10);
        }
        try {
            DumpSampler sampler = new DumpSampler(null, AgentOptions.parse("file=" + dir.resolve("w.tsv")), dir);
            List<SampledThread> sampled = sampler.sample();
            List<SampledThread> onSemaphore = sampled.stream()
                    .filter(t -> t.stack().contains("java.util.concurrent.Semaphore.acquire"))
                    .toList();
            assertEquals(10, onSemaphore.size(), "the ten virtual threads waiting for a permit");
            for (SampledThread t : onSemaphore) {
                assertTrue(t.kind().startsWith("virtual"), t.kind());
                assertTrue(t.stack().startsWith("java.lang.VirtualThread.run;"), "root first: " + t.stack());
                assertTrue(t.stack().contains("loadlab.waits.DumpSamplerTests.lambda$"), t.stack());
                if (Runtime.version().feature() >= 25) {
                    assertEquals("WAITING", t.state());
                    assertEquals("java.util.concurrent.Semaphore$NonfairSync", t.blocker());
                }
            }
            assertTrue(sampled.stream().noneMatch(t -> t.stack().contains("DumpSampler.sample")),
                    "the sampler leaves itself out");
            assertTrue(Files.notExists(dir.resolve("dump.json")), "each dump is removed once read");
        } finally {
            end.countDown();
            for (Thread t : started) {
                t.join();
            }
        }
    }

    @Test
    void foldsAFrameToItsClassAndMethod() {
        assertEquals("java.lang.Thread.sleep",
                SampledThread.frame("java.base/java.lang.Thread.sleep(Thread.java:540)"));
        assertEquals("org.example.App.call", SampledThread.frame("app//org.example.App.call(App.java:12)"));
        assertEquals("T.lambda$main$1", SampledThread.frame("T.lambda$main$1(T.java:9)"));
    }
}
