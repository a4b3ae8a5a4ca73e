/**
 * The running device connections: {@link io.qubiq.app.devices.DeviceConnections} starts every connector
 * (which connect and reconnect on their own threads), knows which connection owns which tag, serves the
 * console's browse, tag write and certificate requests (each write and trust is audited with its outcome),
 * and lists connections that are down or not collecting on {@code /health};
 * {@code DeviceReadiness} decides when the gateway is ready ("ready means collecting").
 * {@link io.qubiq.app.devices.TagBusView} is the console's view of the latest values, and
 * {@link io.qubiq.app.devices.SubscriberParts} lists tag-bus subscribers whose delivery thread failed.
 *
 * <p><b>Owns</b> the map from tag to owning connection and the gateway's readiness as far as devices go.
 *
 * <p><b>Must not</b> buffer or retry a tag write (writes go straight to the device and fail visibly), and
 * must not hold protocol detail: that belongs to {@code connector-opcua} and {@code connector-mqtt}.
 * Access methods run on HTTP threads and must stay safe from any thread.
 */
package io.qubiq.app.devices;
