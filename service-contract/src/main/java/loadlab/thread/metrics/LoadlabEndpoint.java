package loadlab.thread.metrics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import loadlab.thread.cpu.CpuWork;
import loadlab.thread.threadlocal.PerThreadObject;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.stereotype.Component;

/**
 * {@code GET /actuator/loadlab}: one flat object the harness samples every second. Counters ({@code *_total},
 * CPU seconds) are cumulative since start; the harness takes differences. -1 means "not available here". The fields
 * are exactly those of {@code loadlab/metrics.tsv} ({@link MetricNames}), in its order: the service refuses to start
 * when the two differ, so a metric added on one side only cannot go unnoticed. The reactive service serves this
 * same class (both depend on service-contract) with its own probes, so both answer the same fields in one order.
 */
@Component
@Endpoint(id = "loadlab")
public class LoadlabEndpoint {

    private final Map<String, Supplier<Object>> fields = new LinkedHashMap<>();

    LoadlabEndpoint(ServerProbe pool, JvmProbe jvm, RequestCounts requests, DownstreamCallStats downstream,
            PoolProbe database, CpuWork work, PerThreadObject perThread, FanOutSetup fanOut) {
        String mode = pool.threadMode();
        Map<String, Supplier<Object>> all = new LinkedHashMap<>();
        all.put("thread_mode", () -> mode);
        all.put("java_version_feature", () -> Runtime.version().feature());
        all.put("virtual_scheduler_parallelism", jvm::virtualSchedulerParallelism);
        all.put("tomcat_threads_max", pool::maxThreads);
        all.put("db_pool_max", database::max);
        all.put("cpu_work_calibration", () -> Math.round(work.iterationsPerMs()));
        all.put("tomcat_max_connections", pool::maxConnections);
        all.put("threadlocal_kb", perThread::kb);
        all.put("downstream_concurrency_limit", downstream::concurrencyLimit);
        all.put("downstream_client", downstream::client);
        all.put("downstream_client_pool_per_route", downstream::clientPoolPerRoute);
        all.put("downstream_client_pool_total", downstream::clientPoolTotal);
        all.put("fanout_shape", fanOut::shape);
        all.put("fanout_pool", fanOut::pool);
        all.put("jvm_threads_live", jvm::liveThreads);
        all.put("jvm_threads_daemon", jvm::daemonThreads);
        all.put("jvm_threads_peak", jvm::peakThreads);
        all.put("virtual_threads_mounted", jvm::mountedVirtualThreads);
        all.put("virtual_threads_queued", jvm::queuedVirtualThreads);
        all.put("tomcat_threads_busy", pool::busyThreads);
        all.put("tomcat_queue_size", pool::queuedRequests);
        all.put("tomcat_connections", pool::connections);
        all.put("inflight_requests", requests::inflight);
        all.put("db_pool_active", database::active);
        all.put("db_pool_idle", database::idle);
        all.put("db_pool_pending", database::pending);
        all.put("heap_used_bytes", () -> jvm.heap().getUsed());
        all.put("heap_committed_bytes", () -> jvm.heap().getCommitted());
        all.put("requests_total", requests::total);
        all.put("gc_pause_ms_total", jvm::gcPauseMillis);
        all.put("gc_count_total", jvm::gcCount);
        all.put("process_cpu_seconds", jvm::processCpuSeconds);
        all.put("downstream_calls_total", downstream::calls);
        all.put("downstream_time_ms_total", downstream::totalMillis);
        all.put("downstream_rejected_total", downstream::rejected);
        all.put("cpu_work_ms_total", work::workMsTotal);
        all.put("threadlocal_builds_total", perThread::builds);
        List<String> names = MetricNames.all();
        if (!names.equals(List.copyOf(all.keySet()))) {
            throw new IllegalStateException("/actuator/loadlab fields " + all.keySet() + " differ from "
                    + MetricNames.RESOURCE + " " + names
                    + ": add or remove the field on both sides, in the same order");
        }
        fields.putAll(all);
    }

    @ReadOperation
    Map<String, Object> sample() {
        Map<String, Object> sample = new LinkedHashMap<>();
        fields.forEach((name, value) -> sample.put(name, value.get()));
        return sample;
    }
}
