package loadlab.thread;

/** The keys of /actuator/loadlab, as the harness reads them. */
final class LoadlabFields {

    static final String[] ALL = {
            "thread_mode", "jvm_threads_live", "jvm_threads_daemon", "jvm_threads_peak",
            "virtual_threads_mounted", "virtual_threads_queued",
            "tomcat_threads_busy", "tomcat_threads_max", "tomcat_queue_size", "tomcat_connections",
            "inflight_requests", "requests_total",
            "heap_used_bytes", "heap_committed_bytes", "gc_pause_ms_total", "gc_count_total",
            "process_cpu_seconds", "downstream_calls_total", "downstream_time_ms_total"};

    private LoadlabFields() {
    }
}
