package loadlab.gatling.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import loadlab.gatling.config.HarnessThresholds;
import loadlab.gatling.config.LoadConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GoSignalTest {

    @TempDir
    Path dir;

    @Test
    void waitsAfterSayingItIsReadyUntilTheGoFileHoldsTheStartInstant() throws Exception {
        Path go = dir.resolve("gatling-injector-1.go");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        CompletableFuture<Long> started = CompletableFuture.supplyAsync(() -> GoSignal.await(go, 60_000, 1, out));
        // The ready line is what the harness waits for before it chooses an instant every injector can meet.
        while (!bytes.toString(StandardCharsets.UTF_8).contains("LOADLAB inj=1 ready: waiting for the go file")) {
            Thread.sleep(5);
        }
        Thread.sleep(3 * GoSignal.POLL_MS);
        assertFalse(started.isDone(), "started before the go file was written");
        Files.writeString(dir.resolve("go.tmp"), "1795756591000\n");
        Files.move(dir.resolve("go.tmp"), go);
        assertEquals(1795756591000L, started.get(60, TimeUnit.SECONDS));
    }

    @Test
    void theInstantOfTheGoIsTheOneTheRunRecords() {
        LoadConfig c = HarnessThresholds.parse(Map.of("goFile", "/tmp/x.go")).startingAt(1795756591000L);
        assertEquals(1795756591000L, c.startAtEpochMs());
        assertEquals("1795756591000", c.effective().get("startAtEpochMs"));
        assertEquals("/tmp/x.go", c.goFile());
    }

    @Test
    void noGoWithinTheTimeoutEndsTheWaitNamingTheFile() {
        Path go = dir.resolve("never.go");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> GoSignal.await(go, 1, 0, new PrintStream(new ByteArrayOutputStream())));
        assertTrue(e.getMessage().startsWith("loadlab.goFile=" + go + ": no go within"), e.getMessage());
    }

    @Test
    void aGoFileWithoutAnInstantIsRefused() throws Exception {
        Path go = dir.resolve("bad.go");
        Files.writeString(go, "soon");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> GoSignal.await(go, 60_000, 0, new PrintStream(new ByteArrayOutputStream())));
        assertTrue(e.getMessage().contains("holds 'soon', expected the start instant"), e.getMessage());
    }
}
