package loadlab.thread.api;

/** The endpoints a workload request arrives on, one per scenario: what the per-request filters apply to. */
public final class WorkloadPaths {

    public static final String[] ALL = {"/forward", "/pinned", "/db", "/cpu", "/fanout"};

    private WorkloadPaths() {
    }
}
