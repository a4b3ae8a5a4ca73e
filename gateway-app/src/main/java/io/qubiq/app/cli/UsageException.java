package io.qubiq.app.cli;

/** The command line cannot be understood; the message says what was wrong and what was expected. */
public final class UsageException extends Exception {

    public UsageException(String message) {
        super(message);
    }
}
