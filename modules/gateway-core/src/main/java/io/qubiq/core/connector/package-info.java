/**
 * The contract of device connections: values in through a publisher, writes out to the device
 * ({@link io.qubiq.core.connector.DeviceConnector}), the description of one kind of connection,
 * its configuration section and how to build and probe its connector ({@link io.qubiq.core.connector.DeviceKind}),
 * what a probe found ({@link io.qubiq.core.connector.ProbeResult}), and the limits a writable tag's values
 * must keep ({@link io.qubiq.core.connector.WriteLimits}, refused with a
 * {@link io.qubiq.core.connector.WriteLimitException}).
 */
package io.qubiq.core.connector;
