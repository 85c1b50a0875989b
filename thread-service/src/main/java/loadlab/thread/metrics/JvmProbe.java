package loadlab.thread.metrics;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadMXBean;
import java.util.List;

import jdk.management.VirtualThreadSchedulerMXBean;
import org.springframework.stereotype.Component;

/** Platform MXBeans only: each read is a field or counter lookup, cheap enough to sample every second. */
@Component
class JvmProbe {

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans().stream()
            // ZGC and Shenandoah also publish "... Cycles" beans timing concurrent work; only pauses stop requests.
            .filter(gc -> !gc.getName().endsWith("Cycles"))
            .toList();
    private final java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    private final VirtualThreadSchedulerMXBean scheduler = virtualThreadScheduler();

    private static VirtualThreadSchedulerMXBean virtualThreadScheduler() {
        try {
            return ManagementFactory.getPlatformMXBean(VirtualThreadSchedulerMXBean.class);
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** Platform threads only: virtual threads never appear in ThreadMXBean counts. */
    int liveThreads() {
        return threads.getThreadCount();
    }

    int daemonThreads() {
        return threads.getDaemonThreadCount();
    }

    int peakThreads() {
        return threads.getPeakThreadCount();
    }

    int mountedVirtualThreads() {
        return scheduler == null ? -1 : scheduler.getMountedVirtualThreadCount();
    }

    long queuedVirtualThreads() {
        return scheduler == null ? -1 : scheduler.getQueuedVirtualThreadCount();
    }

    MemoryUsage heap() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    }

    long gcPauseMillis() {
        long total = 0;
        for (GarbageCollectorMXBean gc : collectors) {
            total += Math.max(0, gc.getCollectionTime());
        }
        return total;
    }

    long gcCount() {
        long total = 0;
        for (GarbageCollectorMXBean gc : collectors) {
            total += Math.max(0, gc.getCollectionCount());
        }
        return total;
    }

    double processCpuSeconds() {
        return os instanceof com.sun.management.OperatingSystemMXBean sunOs && sunOs.getProcessCpuTime() >= 0
                ? sunOs.getProcessCpuTime() / 1e9
                : -1;
    }
}
