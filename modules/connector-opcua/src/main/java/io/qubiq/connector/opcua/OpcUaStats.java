package io.qubiq.connector.opcua;

/**
 * Counters of one OPC UA connection since it started.
 *
 * @param valuesReceived data values received from the server (subscriptions and reads)
 * @param errors failed connection attempts, failed reads and failed subscription calls
 * @param reconnects times a lost session became active again
 * @param subscriptionsRecreated subscriptions created anew because the server could not transfer them
 * @param notificationsLost gaps in a subscription's notification sequence numbers that the server could
 *                          not fill (Republish failed): values may be missing
 * @param repeatsDropped notifications identical to the value last published for their tag (same value,
 *                       quality and source time), dropped in subscription mode
 */
public record OpcUaStats(long valuesReceived, long errors, long reconnects, long subscriptionsRecreated,
                         long notificationsLost, long repeatsDropped) {
}
