package loadlab.thread.metrics;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadMXBean;
import java.util.List;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.springframework.stereotype.Component;

/** Platform MXBeans only: each read is a field or counter lookup, cheap enough to sample every second. */
@Component
public class JvmProbe {

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans().stream()
            // ZGC and Shenandoah also publish "... Cycles" beans timing concurrent work; only pauses stop requests.
            .filter(gc -> !gc.getName().endsWith("Cycles"))
            .toList();
    private final java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    // jdk.management's VirtualThreadSchedulerMXBean exists from JDK 24; the classes are built for release 21 (so the
    // service also runs on 21, to show pinning), hence read by name: absent on 21, where the gauges say -1.
    private final ObjectName scheduler = virtualThreadScheduler();

    private ObjectName virtualThreadScheduler() {
        try {
            ObjectName name = new ObjectName("jdk.management:type=VirtualThreadScheduler");
            return server.isRegistered(name) ? name : null;
        } catch (Exception e) {
            return null;
        }
    }

    private long schedulerAttribute(String attribute) {
        if (scheduler == null) {
            return -1;
        }
        try {
            return ((Number) server.getAttribute(scheduler, attribute)).longValue();
        } catch (Exception e) {
            return -1;
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

    long mountedVirtualThreads() {
        return schedulerAttribute("MountedVirtualThreadCount");
    }

    long queuedVirtualThreads() {
        return schedulerAttribute("QueuedVirtualThreadCount");
    }

    /** The virtual threads' carriers: the scheduler's own figure (24+), else what JDK 21 uses by default. */
    long virtualSchedulerParallelism() {
        long reported = schedulerAttribute("Parallelism");
        if (reported > 0) {
            return reported;
        }
        String configured = System.getProperty("jdk.virtualThreadScheduler.parallelism");
        try {
            return configured != null ? Integer.parseInt(configured.trim())
                    : Runtime.getRuntime().availableProcessors();
        } catch (NumberFormatException e) {
            return Runtime.getRuntime().availableProcessors();
        }
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
