/**
 * What the pipelines need from the gateway: {@link io.qubiq.app.pipelines.PipelineOutputs} builds each
 * output for its outbound connection, with the mapper its kind supplies (see {@code io.qubiq.app.outbound})
 * wired to that connection's channel; {@link io.qubiq.app.pipelines.MqttDeviceMessages} taps the MQTT device
 * connections for MQTT triggers; {@link io.qubiq.app.pipelines.PipelinesAccess} is the console's view and the
 * audited enable and disable, and lists failed pipelines on {@code /health};
 * {@link io.qubiq.app.pipelines.PipelineTrialRuns} checks an expression and tries a pipeline section for the
 * console's editor, mapping each event with the outputs' own mappers and handing nothing to a channel.
 *
 * <p><b>Must not</b> run triggers, evaluate filters or keep pipeline state (that is {@code modules/pipeline}),
 * map events to sink items (each outbound kind does), or write to a destination except through the
 * connection's store-and-forward channel.
 */
package io.qubiq.app.pipelines;
