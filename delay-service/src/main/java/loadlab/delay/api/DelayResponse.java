package loadlab.delay.api;

/** Body of a successful {@code /delay}: the delay actually honoured. */
record DelayResponse(long delayMs) {
}
