package io.qubiq.core.lifecycle;

/** Where a component is in its life, as reported on /health and the console. */
public enum ComponentState {
    NEW, STARTING, RUNNING, STOPPING, STOPPED, FAILED
}
