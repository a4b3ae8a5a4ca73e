/**
 * The OPC UA device connector, built on Eclipse Milo's client SDK 1.x.
 *
 * <p>{@link io.qubiq.connector.opcua.OpcUaConnector} reads the tags of {@link
 * io.qubiq.connector.opcua.OpcUaConnectionConfig} (subscriptions or polling) and publishes tag
 * values with the server's status code as quality; it writes tags straight to the device and
 * browses the address space for the console. Connection failures are retried with backoff; a lost
 * session turns every tag Bad NotConnected until values flow again. Write failures are typed:
 * permanent (not configured, not writable, not convertible; nothing sent), transient (not
 * connected; nothing sent) or unknown outcome (timeout after sending). See docs/connectors/opcua.md.
 */
package io.qubiq.connector.opcua;
