import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Pins exactly N virtual threads, one after the other, so a JFR recording holds N jdk.VirtualThreadPinned events.
 *
 * Since JDK 24 `synchronized` no longer pins; a native frame on the stack still does. Each virtual thread calls the
 * C library's bsearch over a one-element array, which calls back into Java exactly once, and the callback sleeps.
 * Run as a single-file program: java --enable-native-access=ALL-UNNAMED PinnedFixture.java N
 */
public class PinnedFixture {
    static int compare(MemorySegment a, MemorySegment b) {
        try {
            Thread.sleep(20);  // over the recording's 0 ms threshold, and long enough to park for sure
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        return 0;
    }

    public static void main(String[] args) throws Throwable {
        int n = Integer.parseInt(args[0]);
        Linker linker = Linker.nativeLinker();
        MethodHandle bsearch = linker.downcallHandle(linker.defaultLookup().find("bsearch").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS,
                        ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));
        MethodHandle callback = MethodHandles.lookup().findStatic(PinnedFixture.class, "compare",
                MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class));
        try (Arena arena = Arena.ofShared()) {
            MemorySegment stub = linker.upcallStub(callback,
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS), arena);
            MemorySegment key = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment array = arena.allocate(ValueLayout.JAVA_INT);
            for (int i = 0; i < n; i++) {
                Thread t = Thread.ofVirtual().start(() -> {
                    try {
                        bsearch.invoke(key, array, 1L, 4L, stub);
                    } catch (Throwable e) {
                        throw new IllegalStateException(e);
                    }
                });
                t.join();
            }
        }
    }
}
