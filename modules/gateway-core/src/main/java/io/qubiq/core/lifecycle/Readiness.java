package io.qubiq.core.lifecycle;

/**
 * The gateway as a whole. READY and DEGRADED mean it started and runs: DEGRADED when some part is
 * down (a component that failed to start, a destination or device that is disconnected), each
 * listed with its reason. The console's /health answers 200 for both, 503 for STARTING, STOPPING
 * and FAILED.
 */
public enum Readiness {
    STARTING, READY, DEGRADED, STOPPING, FAILED;

    /** Fully up: every part running and connected. */
    public boolean isReady() {
        return this == READY;
    }

    /** READY or DEGRADED: started and running, perhaps with some parts down. */
    public boolean isRunning() {
        return this == READY || this == DEGRADED;
    }

    /**
     * This readiness once the parts that are down now are known: a running gateway is DEGRADED while
     * any part is down and READY otherwise; STARTING, STOPPING and FAILED stay as they are.
     */
    public Readiness given(boolean anyPartDown) {
        if (!isRunning()) {
            return this;
        }
        return anyPartDown ? DEGRADED : READY;
    }
}
