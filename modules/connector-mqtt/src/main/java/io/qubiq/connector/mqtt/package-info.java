/**
 * The MQTT device connector, built on the HiveMQ MQTT client 1.4 (MQTT 3.1.1 and 5).
 *
 * <p>{@link io.qubiq.connector.mqtt.MqttConnector} subscribes to the topic filters of {@link
 * io.qubiq.connector.mqtt.MqttConnectionConfig} and turns each message into a tag value: the tag
 * path from the topic (fixed, or a template over the wildcard levels), the value from a plain or
 * JSON payload with its optional timestamp and quality. Malformed messages are counted and
 * reported per topic, never silently dropped. A lost connection turns the tags Bad NotConnected;
 * the client reconnects with backoff and resubscribes when the broker lost the session. A QoS 1 or 2
 * message is acknowledged to the broker only once it is kept: its values were published with a custody
 * receipt and every durable holder (historian, pipelines, through the tag bus or a message tap) released its share,
 * the value being buffered, delivered or accounted for as a loss or as filtering (or the message was
 * counted as malformed or unmatched). Messages are processed inline on the client's own thread and at
 * most a bounded window of them waits for its acknowledgement ({@link
 * io.qubiq.connector.mqtt.InboundFlow} says why); one the connector did not take, or whose custody was
 * still held when the gateway stopped or died, is redelivered to the next connection. Tag writes
 * are publishes to command topics, never buffered: permanent failure (not writable, not encodable;
 * nothing sent), transient (not connected; nothing sent) or unknown outcome (no acknowledgement in
 * time). The client's address, TLS, credentials and protocol version come from {@code io.qubiq.mqtt}
 * (module mqtt-common, shared with the MQTT sink). See docs/connectors/mqtt.md.
 */
package io.qubiq.connector.mqtt;
