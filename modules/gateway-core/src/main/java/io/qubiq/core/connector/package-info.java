/**
 * The contract of device connections: values in through a publisher, writes out to the device
 * ({@link io.qubiq.core.connector.DeviceConnector}), and the description of one kind of connection,
 * its configuration section and how to build its connector ({@link io.qubiq.core.connector.DeviceKind}).
 */
package io.qubiq.core.connector;
