package loadlab.waits;

import java.util.List;
import java.util.Map;

/**
 * One thread as a thread dump saw it: what ran it, its state, what it waited on, and its stack folded root first.
 * Only facts: which of them is a request and where it waited is the harness's rule (analysis/wait_sites.py), in
 * one place.
 *
 * @param kind    {@code platform}, {@code virtual} (unmounted) or {@code virtual-mounted} (on a carrier); on JDK 21,
 *                whose dump says neither, {@code virtual} for a stack run by {@code VirtualThread.run} and {@code -}
 *                for any other (a platform thread, or a virtual thread that has not run yet: no stack)
 * @param state   the thread's state, {@code -} when the dump does not give one (JDK 21)
 * @param blocker the class of the object it parked on or waits to enter, {@code -} when none
 * @param stack   the frames, root first, each {@code package.Class.method}, joined by {@code ;}
 */
record SampledThread(String kind, String state, String blocker, String stack) {

    static SampledThread of(Map<?, ?> thread) {
        String kind = kind(thread);
        Object state = thread.get("state");
        String stateName = state == null ? "-" : state.toString();
        return new SampledThread(kind, stateName, blocker(thread), fold(thread.get("stack")));
    }

    private static String kind(Map<?, ?> thread) {
        Object virtual = thread.get("virtual");
        if (virtual == null && !thread.containsKey("state")) {
            return rootFrame(thread.get("stack")).equals("java.lang.VirtualThread.run") ? "virtual" : "-";
        }
        if (!Boolean.TRUE.equals(virtual)) {
            return "platform";
        }
        return thread.get("carrier") != null ? "virtual-mounted" : "virtual";
    }

    private static String rootFrame(Object stack) {
        return stack instanceof List<?> frames && !frames.isEmpty() ? frame(frames.getLast().toString()) : "";
    }

    private static String blocker(Map<?, ?> thread) {
        Object on = thread.get("blockedOn");
        if (on == null) {
            on = thread.get("waitingOn");
        }
        if (on == null && thread.get("parkBlocker") instanceof Map<?, ?> parked) {
            on = parked.get("object");
        }
        if (on == null) {
            return "-";
        }
        String text = on.toString();
        int hash = text.indexOf('@');
        return hash > 0 ? text.substring(0, hash) : text;
    }

    /** The dump lists frames top first, as {@code module/package.Class.method(File.java:line)}. */
    static String fold(Object stack) {
        if (!(stack instanceof List<?> frames) || frames.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        for (int i = frames.size() - 1; i >= 0; i--) {
            if (out.length() > 0) {
                out.append(';');
            }
            out.append(frame(frames.get(i).toString()));
        }
        return out.toString();
    }

    static String frame(String frame) {
        int paren = frame.indexOf('(');
        String method = paren < 0 ? frame : frame.substring(0, paren);
        int slash = method.lastIndexOf('/');
        return (slash < 0 ? method : method.substring(slash + 1)).replace(';', ',').replace('\t', ' ');
    }
}
