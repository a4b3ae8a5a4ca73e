/**
 * What the pipelines need from the gateway: {@link io.qubiq.app.pipelines.PipelineOutputs} builds each
 * output for its outbound connection, with the mapper for the connection's item type
 * ({@code QuestDbRowMapper}, {@code SqlRowMapper}, {@code MongoDocumentMapper}, {@code MqttMessageMapper}:
 * a pipeline event to one sink item, by evaluating the output's compiled expressions) wired to that
 * connection's channel; {@link io.qubiq.app.pipelines.MqttDeviceMessages} taps the MQTT device connections
 * for MQTT triggers; {@link io.qubiq.app.pipelines.PipelinesAccess} is the console's view and the audited
 * enable and disable, and lists failed pipelines on {@code /health}.
 *
 * <p><b>Owns</b> the mapping from pipeline output to sink item (it lives here because only the application
 * knows every sink's item type; issue 21 moves it next to each outbound kind).
 *
 * <p><b>Must not</b> run triggers, evaluate filters or keep pipeline state (that is {@code modules/pipeline}),
 * and must not write to a destination except through the connection's store-and-forward channel.
 * Mappers are immutable and run on the pipeline's event thread.
 */
package io.qubiq.app.pipelines;
