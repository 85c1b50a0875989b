package loadlab.thread.metrics;

/** Workload requests a service has picked up: since start, and being handled now. */
public interface RequestCounts {

    long total();

    long inflight();
}
