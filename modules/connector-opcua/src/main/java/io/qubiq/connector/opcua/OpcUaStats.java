package io.qubiq.connector.opcua;

/**
 * Counters of one OPC UA connection since it started.
 *
 * @param valuesReceived data values received from the server (subscriptions and reads)
 * @param errors failed connection attempts, failed reads and failed subscription calls
 * @param reconnects times a lost session became active again
 * @param subscriptionsRecreated subscriptions created anew because the server could not transfer them
 */
public record OpcUaStats(long valuesReceived, long errors, long reconnects, long subscriptionsRecreated) {
}
