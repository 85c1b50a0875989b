package loadlab.thread.support;

import loadlab.thread.metrics.MetricNames;

/** The keys of /actuator/loadlab, as the harness reads them: the shared list in loadlab/metrics.tsv. */
public final class LoadlabFields {

    public static final String[] ALL = MetricNames.all().toArray(String[]::new);

    private LoadlabFields() {
    }
}
