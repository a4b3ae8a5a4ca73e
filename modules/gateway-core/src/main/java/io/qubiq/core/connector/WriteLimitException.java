package io.qubiq.core.connector;

/**
 * A tag write was refused before reaching the device because its value is not a number within the
 * tag's {@link WriteLimits}: the caller's input is wrong, so retrying the same value cannot help. The
 * message names the tag, the value and the limits. The REST API answers it with 400.
 */
public final class WriteLimitException extends IllegalArgumentException {

    public WriteLimitException(String message) {
        super(message);
    }
}
