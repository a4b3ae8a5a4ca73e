/**
 * The contract of device connections: values in through a publisher, writes out to the device
 * ({@link io.qubiq.core.connector.DeviceConnector}), the description of one kind of connection,
 * its configuration section and how to build and probe its connector ({@link io.qubiq.core.connector.DeviceKind}),
 * and what a probe found ({@link io.qubiq.core.connector.ProbeResult}).
 */
package io.qubiq.core.connector;
