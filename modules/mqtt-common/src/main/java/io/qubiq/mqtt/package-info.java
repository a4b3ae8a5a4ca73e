/**
 * MQTT support shared by the device connector ({@code io.qubiq.connector.mqtt}) and the sink
 * ({@code io.qubiq.sink.mqtt}), written once: the protocol version ({@link io.qubiq.mqtt.MqttProtocol}),
 * the settings both need to reach a broker and the checks they share ({@link io.qubiq.mqtt.BrokerSettings},
 * {@link io.qubiq.mqtt.ClientIdentifiers}), TLS with the trust-everything manager of
 * {@code tls_verify: false} ({@link io.qubiq.core.tls.TrustEverything}, for tests only), and the start
 * of every HiveMQ client ({@link io.qubiq.mqtt.ClientBuilders}).
 *
 * <p>The keys both sides share (host, port, TLS, credentials) are declared once, in
 * {@link io.qubiq.mqtt.BrokerEndpoint}, which each side's configuration record includes {@code @Inline}
 * so they stay at the section's level; the keys that differ (the protocol version and its default,
 * client id, session and timeouts) each side declares itself, and it hands over a {@code BrokerSettings}.
 * It owns no threads and no connections; how a client reconnects, acknowledges and publishes stays with
 * the connector and the sink.
 */
package io.qubiq.mqtt;
