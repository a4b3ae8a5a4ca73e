package io.qubiq.connector.opcua;

/** How values are acquired: server-side subscriptions (reports on change) or periodic reads. */
public enum AcquisitionMode {
    SUBSCRIPTION,
    POLLING
}
