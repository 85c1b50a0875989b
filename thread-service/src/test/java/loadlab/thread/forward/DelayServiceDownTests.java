package loadlab.thread.forward;

/** {@link DelayServiceDownContractTests} on the thread-service (platform threads, its default). */
class DelayServiceDownTests extends DelayServiceDownContractTests {
}
