package loadlab.gatling.recorder;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.HdrHistogram.Histogram;

/**
 * Counts sends by send second and records completions into per-second histograms (ms) keyed by completion second,
 * tagged ok/ko. Called from Gatling's event loops for every request, so recording is one map lookup and a short lock
 * on that second's bucket; the seconds are handed out, in order and exactly once, by {@link #drainBefore}.
 */
public final class SecondRecorder {

    /** Above any request timeout we allow; larger values are clamped so recording never throws. */
    static final long MAX_TRACKABLE_MS = 3_600_000L;
    static final int SIGNIFICANT_DIGITS = 3;

    /** One drained second. Histograms are fresh objects the caller may keep or merge. */
    /** @param koByKind failed requests by {@link ErrorKind} ordinal */
    public record SecondStats(long second, long sent, long ok, long ko, long inflight, Histogram okHistogram,
            Histogram koHistogram, long[] koByKind) {
    }

    private static final class Bucket {
        long sent;
        long ok;
        long ko;
        final long[] koByKind = new long[ErrorKind.values().length];
        Histogram okHist;
        Histogram koHist;
        boolean closed;
    }

    private final ConcurrentHashMap<Long, Bucket> buckets = new ConcurrentHashMap<>();
    private final AtomicLong inflight = new AtomicLong();
    private final AtomicLong lateRecords = new AtomicLong();
    /** Seconds before this one were drained; a record that arrives for them later goes into this second. */
    private volatile long firstOpenSecond;
    private long cumulativeSent;
    private long cumulativeDone;

    public SecondRecorder(long firstSecond) {
        this.firstOpenSecond = firstSecond;
    }

    public static Histogram newHistogram() {
        return new Histogram(1, MAX_TRACKABLE_MS, SIGNIFICANT_DIGITS);
    }

    public void sent(long epochMs) {
        inflight.incrementAndGet();
        record(epochMs / 1000, b -> b.sent++);
    }

    public void completed(long epochMs, long latencyMs, boolean ok) {
        completed(epochMs, latencyMs, ok, null);
    }

    /** @param kind why a failed request failed (null: not classified) */
    public void completed(long epochMs, long latencyMs, boolean ok, ErrorKind kind) {
        inflight.decrementAndGet();
        long value = Math.max(0, Math.min(latencyMs, MAX_TRACKABLE_MS));
        record(epochMs / 1000, b -> {
            if (ok) {
                b.ok++;
                if (b.okHist == null) {
                    b.okHist = newHistogram();
                }
                b.okHist.recordValue(value);
            } else {
                b.ko++;
                if (kind != null) {
                    b.koByKind[kind.ordinal()]++;
                }
                if (b.koHist == null) {
                    b.koHist = newHistogram();
                }
                b.koHist.recordValue(value);
            }
        });
    }

    /** Sent but not completed yet, right now. */
    public long inflight() {
        return inflight.get();
    }

    /** Records that arrived after their second was drained (and were counted in a later second). */
    public long lateRecords() {
        return lateRecords.get();
    }

    public long firstOpenSecond() {
        return firstOpenSecond;
    }

    private interface Update {
        void apply(Bucket b);
    }

    private void record(long second, Update update) {
        boolean late = false;
        while (true) {
            long s = second;
            long open = firstOpenSecond;
            if (s < open) {
                s = open;
                late = true;
            }
            Bucket b = buckets.computeIfAbsent(s, k -> new Bucket());
            boolean orphan;
            synchronized (b) {
                if (!b.closed && s >= firstOpenSecond) {
                    update.apply(b);
                    if (late) {
                        lateRecords.incrementAndGet();
                    }
                    return;
                }
                // Open but below the drained mark: created after the drainer removed this second's bucket.
                orphan = !b.closed;
            }
            if (orphan) {
                buckets.remove(s, b);
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /** Hands out every second before {@code endSecond} not handed out yet, oldest first, one entry per second. */
    public synchronized List<SecondStats> drainBefore(long endSecond) {
        List<SecondStats> out = new ArrayList<>();
        for (long s = firstOpenSecond; s < endSecond; s++) {
            Bucket b = buckets.computeIfAbsent(s, k -> new Bucket());
            long sent;
            long ok;
            long ko;
            Histogram okHist;
            Histogram koHist;
            long[] koByKind;
            synchronized (b) {
                b.closed = true;
                sent = b.sent;
                ok = b.ok;
                ko = b.ko;
                okHist = b.okHist;
                koHist = b.koHist;
                koByKind = b.koByKind.clone();
            }
            // Published only after closing: a writer seeing an open bucket below this mark knows it is an orphan.
            firstOpenSecond = s + 1;
            buckets.remove(s, b);
            cumulativeSent += sent;
            cumulativeDone += ok + ko;
            out.add(new SecondStats(s, sent, ok, ko, cumulativeSent - cumulativeDone,
                    okHist != null ? okHist : newHistogram(), koHist != null ? koHist : newHistogram(), koByKind));
        }
        return out;
    }
}
