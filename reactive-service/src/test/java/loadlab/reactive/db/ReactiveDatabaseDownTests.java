package loadlab.reactive.db;

import loadlab.thread.db.DatabaseDownContractTests;

/** The thread-service's {@link DatabaseDownContractTests}, against the R2DBC pool. */
class ReactiveDatabaseDownTests extends DatabaseDownContractTests {
}
