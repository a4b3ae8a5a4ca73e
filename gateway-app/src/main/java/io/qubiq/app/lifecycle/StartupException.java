package io.qubiq.app.lifecycle;

/** A required component failed to start; the components started before it have been stopped again. */
public final class StartupException extends Exception {

    private final String component;

    StartupException(String component, String reason, Throwable cause) {
        super("component '" + component + "' failed to start: " + reason, cause);
        this.component = component;
    }

    public String component() {
        return component;
    }
}
