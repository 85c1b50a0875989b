package loadlab.waits;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class WaitAgentTests {

    @Test
    void anAgentThatCannotStartSaysWhyAndLeavesTheServiceRunning() {
        PrintStream before = System.err;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
        try {
            // a bad option would otherwise throw out of premain and stop the JVM before the app's main
            assertDoesNotThrow(() -> WaitAgent.premain("periodMs=5"));
        } finally {
            System.setErr(before);
        }
        assertTrue(said.toString(StandardCharsets.UTF_8).startsWith("wait-agent: not sampling: "), said.toString());
    }
}
