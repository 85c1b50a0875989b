package loadlab.reactive;

import loadlab.thread.DelayServiceDownContractTests;

/** The thread-service's {@link DelayServiceDownContractTests}, against WebClient. */
class ReactiveDelayServiceDownTests extends DelayServiceDownContractTests {
}
