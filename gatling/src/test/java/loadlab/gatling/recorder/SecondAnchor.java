package loadlab.gatling.recorder;

/**
 * Where the run's seconds start. The first virtual user fixes a whole wall-clock second, not before
 * {@code loadlab.startAtEpochMs} (the one instant every injector of a run is given, so their seconds line up and
 * their histograms merge exactly); every user waits until it, and the recorder counts seconds from it. Each
 * {@code seconds.csv} row then holds exactly one scheduled rate.
 */
public final class SecondAnchor {

    /**
     * Gatling schedules users on whole milliseconds, one of them at ms 0 of every second; other users start a few ms
     * late (event-loop jitter) relative to the first one, which fixed the pause. A few ms of slack keeps the ms-0 users
     * in their own second instead of the one before, at the cost of the same few ms at the end of a second.
     */
    public static final long ALIGN_SLACK_MS = 5;

    private final long startAtEpochMs;
    // Written in this order, anchorMs last: a reader that sees the anchor fixed sees the other two.
    private volatile SecondRecorder recorder;
    private volatile long delayMs;
    private volatile long anchorMs = -1;

    public SecondAnchor(long startAtEpochMs) {
        this.startAtEpochMs = startAtEpochMs;
    }

    /** How long every virtual user waits before sending; the first caller fixes it. */
    public long delayMs(long nowMs) {
        if (anchorMs < 0) {
            synchronized (this) {
                if (anchorMs < 0) {
                    long wanted = Math.max(nowMs, startAtEpochMs);
                    long anchor = (wanted + 999) / 1000 * 1000;
                    recorder = new SecondRecorder(anchor / 1000);
                    delayMs = anchor - nowMs + ALIGN_SLACK_MS;
                    anchorMs = anchor;
                }
            }
        }
        return delayMs;
    }

    public boolean fixed() {
        return anchorMs >= 0;
    }

    /** Injection second 0 in epoch ms; -1 until the first user fixed it. */
    public long epochMs() {
        return anchorMs;
    }

    /** Injection second 0 in epoch seconds, once fixed. */
    public long epochSecond() {
        return anchorMs / 1000;
    }

    /** The per-second counts, opened at the anchor; null until the first user fixed it. */
    public SecondRecorder recorder() {
        return recorder;
    }
}
