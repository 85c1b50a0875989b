package loadlab.gatling.recorder;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class SecondRecorderTest {

    private static final long T0 = 1_763_730_000L; // an epoch second

    private static long ms(long second, long millis) {
        return (T0 + second) * 1000 + millis;
    }

    @Test
    void completionsCountInTheSecondTheyCompleteSendsInTheSecondTheyWereSent() {
        SecondRecorder r = new SecondRecorder(T0);
        r.sent(ms(0, 900));
        r.sent(ms(0, 950));
        r.sent(ms(1, 10));
        r.completed(ms(1, 100), 200, true); // sent in second 0, completes in second 1
        r.completed(ms(1, 999), 1049, true);
        r.completed(ms(2, 0), 10_000, false); // a timeout
        assertEquals(0, r.inflight());

        List<SecondRecorder.SecondStats> s = r.drainBefore(T0 + 3);
        assertEquals(3, s.size());
        assertEquals(List.of(T0, T0 + 1, T0 + 2), s.stream().map(SecondRecorder.SecondStats::second).toList());
        assertEquals(List.of(2L, 1L, 0L), s.stream().map(SecondRecorder.SecondStats::sent).toList());
        assertEquals(List.of(0L, 2L, 0L), s.stream().map(SecondRecorder.SecondStats::ok).toList());
        assertEquals(List.of(0L, 0L, 1L), s.stream().map(SecondRecorder.SecondStats::ko).toList());
        assertEquals(List.of(2L, 1L, 0L), s.stream().map(SecondRecorder.SecondStats::inflight).toList());
        assertEquals(2, s.get(1).okHistogram().getTotalCount());
        assertEquals(0, s.get(1).koHistogram().getTotalCount());
        assertEquals(200, s.get(1).okHistogram().getMinValue());
        assertEquals(10_000, s.get(2).koHistogram().getMaxValue(), 10);
    }

    @Test
    void emptySecondsAreHandedOutTooAndOnlyOnce() {
        SecondRecorder r = new SecondRecorder(T0);
        r.sent(ms(3, 0));
        assertEquals(3, r.drainBefore(T0 + 3).size());
        assertEquals(0, r.drainBefore(T0 + 3).size());
        List<SecondRecorder.SecondStats> next = r.drainBefore(T0 + 4);
        assertEquals(1, next.size());
        assertEquals(1, next.get(0).sent());
        assertEquals(1, r.inflight());
    }

    @Test
    void aRecordForAnAlreadyDrainedSecondLandsInTheFirstOpenSecond() {
        SecondRecorder r = new SecondRecorder(T0);
        r.drainBefore(T0 + 2);
        r.completed(ms(1, 999), 5, true);
        assertEquals(1, r.lateRecords());
        SecondRecorder.SecondStats s = r.drainBefore(T0 + 3).get(0);
        assertEquals(T0 + 2, s.second());
        assertEquals(1, s.ok());
    }

    @Test
    void valuesOutsideTheTrackableRangeAreClamped() {
        SecondRecorder r = new SecondRecorder(T0);
        r.completed(ms(0, 1), -3, true);
        r.completed(ms(0, 2), Long.MAX_VALUE, false);
        SecondRecorder.SecondStats s = r.drainBefore(T0 + 1).get(0);
        assertEquals(0, s.okHistogram().getMaxValue());
        assertEquals(SecondRecorder.MAX_TRACKABLE_MS, s.koHistogram().getMaxValue(),
                SecondRecorder.MAX_TRACKABLE_MS / 500);
    }

    @Test
    void concurrentRecordingWhileDrainingLosesNothing() throws Exception {
        SecondRecorder r = new SecondRecorder(T0);
        int threads = 4;
        int perThread = 20_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        for (int t = 0; t < threads; t++) {
            pool.submit(() -> {
                go.await();
                for (int i = 0; i < perThread; i++) {
                    long second = i / 2_000; // ten seconds' worth, in order, like a clock
                    r.sent(ms(second, 0));
                    r.completed(ms(second, 500), i % 300, i % 10 != 0);
                }
                return null;
            });
        }
        List<SecondRecorder.SecondStats> all = new ArrayList<>();
        go.countDown();
        for (int end = 1; end <= 10; end++) {
            all.addAll(r.drainBefore(T0 + end));
        }
        pool.shutdown();
        pool.awaitTermination(30, TimeUnit.SECONDS);
        all.addAll(r.drainBefore(T0 + 12));
        long sent = all.stream().mapToLong(SecondRecorder.SecondStats::sent).sum();
        long ok = all.stream().mapToLong(SecondRecorder.SecondStats::ok).sum();
        long ko = all.stream().mapToLong(SecondRecorder.SecondStats::ko).sum();
        long hist = all.stream()
                .mapToLong(s -> s.okHistogram().getTotalCount() + s.koHistogram().getTotalCount())
                .sum();
        assertEquals((long) threads * perThread, sent);
        assertEquals((long) threads * perThread, ok + ko);
        assertEquals(ok + ko, hist);
        assertEquals((long) threads * perThread / 10, ko);
        assertEquals(0, all.get(all.size() - 1).inflight());
    }
}
