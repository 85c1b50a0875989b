package loadlab.thread;

import loadlab.thread.metrics.MetricNames;

/** The keys of /actuator/loadlab, as the harness reads them: the shared list in loadlab/metrics.tsv. */
final class LoadlabFields {

    static final String[] ALL = MetricNames.all().toArray(String[]::new);

    private LoadlabFields() {
    }
}
