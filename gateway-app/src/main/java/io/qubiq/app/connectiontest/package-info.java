/**
 * "Test connection", shared by every family of connections: {@link io.qubiq.app.connectiontest.SettingsProbe}
 * binds the settings sent by the console as the configuration file would (problems at the file's key paths),
 * puts the running connection's secrets back where the console sent them masked
 * ({@link io.qubiq.app.connectiontest.MaskedSecrets}) and runs the family's probe bounded by a timeout
 * ({@link io.qubiq.app.connectiontest.BoundedProbe}). The families say only what is their own: the device
 * connections' {@code ConnectionTester} (the kind's probe) and the outbound connections' {@code OutboundTester}
 * (a sink built, probed and closed).
 *
 * <p><b>Owns</b> the steps of a test and their answers. <b>Must not</b> know a kind, a connector or a sink,
 * and must not add, change or restart anything running: a test only reads the running configuration.
 */
package io.qubiq.app.connectiontest;
