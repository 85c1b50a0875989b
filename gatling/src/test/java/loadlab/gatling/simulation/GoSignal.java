package loadlab.gatling.simulation;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import loadlab.gatling.recorder.SecondAnchor;

/**
 * The harness starts Gatling while the service under test is still starting (or, before a fine pass, draining), so
 * the JVM boots meanwhile instead of after it. With {@code loadlab.goFile} set, the simulation waits here, before it
 * writes any raw file or sends anything, until the harness writes that file: the instant (epoch ms) every injector's
 * seconds start from ({@link SecondAnchor}). The harness writes it whole (a temporary file renamed), once the service
 * answered its smoke request; a pass that will not run is stopped while it waits, and leaves no raw file.
 */
final class GoSignal {

    static final long POLL_MS = 20;

    private GoSignal() {
    }

    /**
     * Says it is ready (one {@code LOADLAB inj=<i> ready} line, which the harness waits for before it chooses a start
     * instant several injectors can all meet), then waits for the go file; returns its instant.
     *
     * @throws IllegalStateException when no go came within the timeout (the harness is gone: do not wait forever),
     *     or the file does not hold an instant
     */
    static long await(Path file, long timeoutMs, int injectorIndex, PrintStream out) {
        out.println("LOADLAB inj=" + injectorIndex + " ready: waiting for the go file " + file);
        out.flush();
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (true) {
            String text = read(file);
            if (text != null) {
                return instant(file, text);
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("loadlab.goFile=" + file + ": no go within loadlab.goTimeoutSeconds="
                        + timeoutMs / 1000 + " s; nothing was sent");
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the go file " + file, e);
            }
        }
    }

    static long instant(Path file, String text) {
        try {
            long ms = Long.parseLong(text.strip());
            if (ms >= 0) {
                return ms;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalStateException("loadlab.goFile=" + file + ": holds '" + text.strip()
                + "', expected the start instant in epoch milliseconds");
    }

    private static String read(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            return text.isBlank() ? null : text;
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new IllegalStateException("loadlab.goFile=" + file + ": " + e, e);
        }
    }
}
