package io.qubiq.app.lifecycle;

/** A component failed to start; the components started before it have been stopped again. */
public final class StartupException extends Exception {

    private final String component;

    StartupException(String component, Throwable cause) {
        super("component '" + component + "' failed to start: "
                + (cause.getMessage() != null ? cause.getMessage() : cause.getClass().getName()), cause);
        this.component = component;
    }

    public String component() {
        return component;
    }
}
