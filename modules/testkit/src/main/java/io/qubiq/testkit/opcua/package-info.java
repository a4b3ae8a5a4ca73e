/**
 * A real OPC UA server for tests, built on Milo's server SDK: {@link
 * io.qubiq.testkit.opcua.TestOpcUaServer} (free port on 127.0.0.1, SecurityPolicy None, a namespace
 * with one variable per data type, a writable setpoint, values the test sets with status codes,
 * stop and restart on the same port) and {@link io.qubiq.testkit.opcua.OpcUaServerExtension}, which
 * starts one per test class.
 */
package io.qubiq.testkit.opcua;
