package io.qubiq.connector.opcua;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/** One-line descriptions of failures for status messages and logs, without wrapper exceptions. Stateless. */
final class FailureText {

    private FailureText() {
    }

    static String describe(Throwable e) {
        Throwable cause = e;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof TimeoutException) {
            return "no answer in time (for a secured endpoint, check whether the server certificate was rejected)";
        }
        if (cause instanceof io.qubiq.core.error.ConfigurationException) {
            return cause.getMessage(); // already names the key at fault
        }
        String message = cause.getMessage();
        return cause.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
