package loadlab.thread.fanout;

import java.lang.reflect.InvocationTargetException;

import loadlab.thread.forward.DownstreamCall;

/**
 * Loads the structured-scope shape by name, where it can run: it is compiled only on JDK 25 (the Maven profile of
 * thread-service's pom, its preview API) and its class file loads only in a JVM of release 25 started with
 * {@code --enable-preview}. Anywhere else the reason it cannot run, for the log line that says which shape runs
 * instead: a service built on JDK 21, run on JDK 21, run without the flag, or on a later JDK whose preview differs.
 */
final class StructuredScopeLoader {

    static final String CLASS_NAME = "loadlab.fanout.preview.StructuredScopeFanOut";

    /** The shape, or why there is none. */
    record Loaded(FanOutShape shape, String whyNot) {
    }

    private StructuredScopeLoader() {
    }

    static Loaded load(DownstreamCall downstream) {
        int feature = Runtime.version().feature();
        if (feature < 25) {
            return new Loaded(null, "JDK " + feature + " has no StructuredTaskScope of JEP 505 (JDK 25's preview)");
        }
        Class<?> type;
        try {
            type = Class.forName(CLASS_NAME, true, StructuredScopeLoader.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            return new Loaded(null, "this build has no structured-scope class (it was built on a JDK other than 25)");
        } catch (UnsupportedClassVersionError e) {
            // Preview class files load only with --enable-preview, and only on the release that compiled them.
            return new Loaded(null, "its class needs JDK 25 with --enable-preview (" + e.getMessage() + ")");
        }
        try {
            return new Loaded((FanOutShape) type.getConstructor(DownstreamCall.class).newInstance(downstream), null);
        } catch (NoSuchMethodException | InstantiationException | IllegalAccessException
                | InvocationTargetException e) {
            throw new IllegalStateException("Cannot create " + CLASS_NAME + ": " + e, e);
        }
    }
}
