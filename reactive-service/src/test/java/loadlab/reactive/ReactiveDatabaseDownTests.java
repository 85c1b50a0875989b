package loadlab.reactive;

import loadlab.thread.DatabaseDownContractTests;

/** The thread-service's {@link DatabaseDownContractTests}, against the R2DBC pool. */
class ReactiveDatabaseDownTests extends DatabaseDownContractTests {
}
