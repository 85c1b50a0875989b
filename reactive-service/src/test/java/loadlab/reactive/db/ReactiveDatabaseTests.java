package loadlab.reactive.db;

import loadlab.thread.db.DatabaseScenarioTests;

/** The thread-service's {@link DatabaseScenarioTests} (a real PostgreSQL), against the R2DBC pool. */
class ReactiveDatabaseTests extends DatabaseScenarioTests {
}
