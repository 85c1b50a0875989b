package loadlab.reactive.forward;

import loadlab.thread.forward.DelayServiceDownContractTests;

/** The thread-service's {@link DelayServiceDownContractTests}, against WebClient. */
class ReactiveDelayServiceDownTests extends DelayServiceDownContractTests {
}
