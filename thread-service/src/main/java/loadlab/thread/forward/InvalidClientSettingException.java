package loadlab.thread.forward;

/** A bad {@code delay-service.client} or {@code delay-service.client-pool}: startup stops before any call is made. */
class InvalidClientSettingException extends IllegalArgumentException {

    InvalidClientSettingException(String message) {
        super(message);
    }
}
