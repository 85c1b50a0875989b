package loadlab.thread.fanout;

import java.lang.management.ManagementFactory;

import org.springframework.boot.test.context.SpringBootTest;

/**
 * {@link FanOutContractTests} on virtual threads: a structured task scope where the JVM runs JDK 25's preview (the
 * build's tests on JDK 25 run with {@code --enable-preview}), else the virtual-thread executor; both cancel.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "thread-mode=virtual", "management.server.port=0"})
class VirtualFanOutTests extends FanOutContractTests {

    static final boolean PREVIEW = Runtime.version().feature() == 25
            && ManagementFactory.getRuntimeMXBean().getInputArguments().contains("--enable-preview");

    @Override
    protected String shape() {
        return PREVIEW ? "structured-scope" : "virtual-executor";
    }
}
