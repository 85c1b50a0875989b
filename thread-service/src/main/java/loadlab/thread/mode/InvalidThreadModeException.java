package loadlab.thread.mode;

/** Thrown before anything starts, so a typo in {@code thread-mode} never runs the wrong experiment. */
class InvalidThreadModeException extends IllegalArgumentException {

    private final String value;

    InvalidThreadModeException(String value) {
        super("Invalid " + ThreadMode.PROPERTY + " '" + value + "': allowed values are " + ThreadMode.ALLOWED);
        this.value = value;
    }

    String value() {
        return value;
    }
}
