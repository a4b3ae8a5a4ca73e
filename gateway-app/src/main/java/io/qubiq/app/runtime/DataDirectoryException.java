package io.qubiq.app.runtime;

/** The data directory cannot be created, written or locked; the message names it and the cause. */
public final class DataDirectoryException extends Exception {

    public DataDirectoryException(String message, Throwable cause) {
        super(message, cause);
    }

    public DataDirectoryException(String message) {
        super(message);
    }
}
