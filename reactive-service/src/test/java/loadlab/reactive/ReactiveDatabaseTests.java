package loadlab.reactive;

import loadlab.thread.DatabaseScenarioTests;

/** The thread-service's {@link DatabaseScenarioTests} (a real PostgreSQL), against the R2DBC pool. */
class ReactiveDatabaseTests extends DatabaseScenarioTests {
}
