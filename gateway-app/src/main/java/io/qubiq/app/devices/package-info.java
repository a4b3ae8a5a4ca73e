/**
 * The device connections: their kinds, and the running connections split by role.
 *
 * <p><b>Kinds.</b> {@link io.qubiq.app.devices.DeviceKinds} is the one list of device connection kinds
 * ({@code OpcUaKind}, {@code MqttDeviceKind}, each a {@link io.qubiq.core.connector.DeviceKind}); each
 * builds its connector from its own configuration variant and says which tags the configuration declares.
 *
 * <p><b>Running connections.</b> {@link io.qubiq.app.devices.DeviceConnections} is the facade the lifecycle,
 * /health and the console see, over parts that each do one job: {@code ConnectorLifecycle} starts and stops
 * the connectors (which connect and reconnect on their own threads); {@code DeviceHealth} lists connections
 * that failed, are down or are not collecting, with {@code DeviceReadiness} deciding when the gateway is
 * ready ("ready means collecting"); {@code DeviceViews} shows and browses them; {@code TagWrites} owns the
 * map from tag to owning connection and writes and audits tag writes; {@code OpcUaCertificates} lists and
 * trusts OPC UA server certificates (audited). {@link io.qubiq.app.devices.TagBusView} is the console's view
 * of the latest values, and {@link io.qubiq.app.devices.SubscriberParts} lists tag-bus subscribers whose
 * delivery thread failed.
 *
 * <p><b>Must not</b> buffer or retry a tag write (writes go straight to the device and fail visibly), and
 * must not hold protocol detail: that belongs to {@code connector-opcua} and {@code connector-mqtt}. Only
 * the kinds, and the classes named for one protocol's own feature ({@code OpcUaCertificates}), know a
 * concrete connector (DeviceKindRulesTest). Access methods run on HTTP threads and must stay safe from any
 * thread.
 */
package io.qubiq.app.devices;
