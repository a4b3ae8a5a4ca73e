/**
 * The MQTT sink: publishes {@link io.qubiq.sink.mqtt.MqttMessage}s (topic, payload bytes, QoS 0, 1
 * or 2, retain) to one broker with the HiveMQ client, MQTT 5 or 3.1.1, and returns from a write
 * only when every message is acknowledged: QoS 0 handed to the connection, QoS 1 PUBACK, QoS 2
 * PUBCOMP.
 *
 * <p><b>Retriable</b> (transient): the broker unreachable, the connection refused, closed or lost
 * before an acknowledgement, CONNACK refusals such as server unavailable. A replay after a lost
 * connection may publish a QoS 1 message twice (MQTT is at least once); messages acknowledged before
 * the loss are not published again. <b>Not retriable</b>: a PUBACK or PUBREC failure reason code
 * (MQTT 5 only) and a message larger than the broker's maximum packet size are permanent for exactly
 * those messages, the others published; no acknowledgement within {@code publish_timeout_ms} is an
 * unknown outcome; bad credentials, a rejected client id or protocol and TLS handshake failures are
 * configuration errors. The client's address, TLS, credentials and protocol version come from
 * {@code io.qubiq.mqtt} (module mqtt-common, shared with the MQTT connector). See {@code docs/sinks/mqtt.md}.
 */
package io.qubiq.sink.mqtt;
