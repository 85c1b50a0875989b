package loadlab.thread.metrics;

import java.lang.management.MemoryUsage;
import java.util.LinkedHashMap;
import java.util.Map;

import loadlab.thread.mode.ThreadMode;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * {@code GET /actuator/loadlab}: one flat object the harness samples every second. Counters ({@code *_total},
 * CPU seconds) are cumulative since start; the harness takes differences. -1 means "not available here".
 */
@Component
@Endpoint(id = "loadlab")
class LoadlabEndpoint {

    private final String mode;
    private final JvmProbe jvm;
    private final RequestPoolProbe pool;
    private final ForwardRequestCounter requests;
    private final DownstreamCallStats downstream;

    LoadlabEndpoint(Environment environment, JvmProbe jvm, RequestPoolProbe pool, ForwardRequestCounter requests,
            DownstreamCallStats downstream) {
        this.mode = ThreadMode.of(environment).id();
        this.jvm = jvm;
        this.pool = pool;
        this.requests = requests;
        this.downstream = downstream;
    }

    @ReadOperation
    Map<String, Object> sample() {
        MemoryUsage heap = jvm.heap();
        Map<String, Object> sample = new LinkedHashMap<>();
        sample.put("thread_mode", mode);
        sample.put("jvm_threads_live", jvm.liveThreads());
        sample.put("jvm_threads_daemon", jvm.daemonThreads());
        sample.put("jvm_threads_peak", jvm.peakThreads());
        sample.put("virtual_threads_mounted", jvm.mountedVirtualThreads());
        sample.put("virtual_threads_queued", jvm.queuedVirtualThreads());
        sample.put("tomcat_threads_busy", pool.busyThreads());
        sample.put("tomcat_threads_max", pool.maxThreads());
        sample.put("tomcat_queue_size", pool.queuedRequests());
        sample.put("tomcat_connections", pool.connections());
        sample.put("inflight_requests", requests.inflight());
        sample.put("requests_total", requests.total());
        sample.put("heap_used_bytes", heap.getUsed());
        sample.put("heap_committed_bytes", heap.getCommitted());
        sample.put("gc_pause_ms_total", jvm.gcPauseMillis());
        sample.put("gc_count_total", jvm.gcCount());
        sample.put("process_cpu_seconds", jvm.processCpuSeconds());
        sample.put("downstream_calls_total", downstream.calls());
        sample.put("downstream_time_ms_total", downstream.totalMillis());
        return sample;
    }
}
