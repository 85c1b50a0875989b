package loadlab.thread;

/** {@link DatabaseDownContractTests} on the thread-service (HikariCP). */
class DatabaseDownTests extends DatabaseDownContractTests {
}
