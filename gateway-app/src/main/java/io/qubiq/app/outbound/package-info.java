/**
 * Outbound connections as built: {@link io.qubiq.app.outbound.OutboundConnections} makes, for each
 * {@code outbound.<id>}, the sink of its kind (QuestDB, SQL, MongoDB, MQTT), registers its probe with the
 * connection monitor, and puts a {@code StoreForwardChannel} in {@code <data>/connections/<id>} in front of
 * it with the kind's overflow policy; {@link io.qubiq.app.outbound.OutboundConnection} holds the three.
 *
 * <p><b>Owns</b> the list of outbound kinds the gateway can build (today a {@code switch} on the kind name;
 * issue 21 replaces it with one registered object per kind).
 *
 * <p><b>Must not</b> start anything (the wiring adds the channels to the lifecycle) or write to a
 * destination: everything that writes goes through the connection's channel.
 */
package io.qubiq.app.outbound;
