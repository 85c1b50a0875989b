package loadlab.thread.fanout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;

/** The parts of a fan-out without an answer at its deadline: each call whose future has not succeeded (yet). */
final class PendingParts {

    private PendingParts() {
    }

    static List<Integer> of(List<? extends Future<?>> calls) {
        List<Integer> missing = new ArrayList<>();
        for (int part = 0; part < calls.size(); part++) {
            if (calls.get(part).state() != Future.State.SUCCESS) {
                missing.add(part);
            }
        }
        return missing;
    }
}
