/**
 * Outbound connections and their kinds. {@link io.qubiq.app.outbound.OutboundKinds} is the one list of the
 * kinds the gateway can build (QuestDB, SQL, MongoDB, MQTT), each one object ({@code QuestDbKind} and so on):
 * its configuration variant, sink, probe, codec, default overflow policy, documentation and the pipeline
 * output mapping beside it ({@code QuestDbRowMapper}, {@code SqlRowMapper}, {@code MongoDocumentMapper},
 * {@code MqttMessageMapper}: a pipeline event to one sink item, by evaluating the output's compiled
 * expressions; immutable, run on the pipeline's event thread). {@link io.qubiq.app.outbound.OutboundConnections}
 * makes, for each {@code outbound.<id>}, the sink of its kind, registers its probe with the connection
 * monitor, and puts a {@code StoreForwardChannel} in {@code <data>/connections/<id>} in front of it;
 * {@link io.qubiq.app.outbound.OutboundConnection} holds the three.
 *
 * <p><b>Owns</b> the list of kinds and the mapping from pipeline output to each kind's item type. Adding a
 * kind touches its sink module, its two configuration variants, its kind class here and one line of the list.
 *
 * <p><b>Must not</b> start anything (the wiring adds the channels to the lifecycle) or write to a
 * destination: everything that writes goes through the connection's channel.
 */
package io.qubiq.app.outbound;
