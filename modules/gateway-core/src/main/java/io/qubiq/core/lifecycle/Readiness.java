package io.qubiq.core.lifecycle;

/** The gateway as a whole. The console's /health answers 200 only when READY. */
public enum Readiness {
    STARTING, READY, STOPPING, FAILED;

    public boolean isReady() {
        return this == READY;
    }
}
