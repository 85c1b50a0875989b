package loadlab.thread.db;

/** {@link DatabaseDownContractTests} on the thread-service (HikariCP). */
class DatabaseDownTests extends DatabaseDownContractTests {
}
