/**
 * Real MQTT brokers for tests: {@link io.qubiq.testkit.mqtt.TestMqttBroker} (embedded HiveMQ CE on a
 * free loopback port, stop and restart on the same port with its sessions kept in file persistence),
 * {@link io.qubiq.testkit.mqtt.MqttBrokerExtension}, which starts one per test class, and {@link
 * io.qubiq.testkit.mqtt.Mosquitto}, Debian's broker as a child process when {@code /usr/sbin/mosquitto}
 * is installed. Both can be set up to refuse on purpose: a maximum packet size on either, an ACL
 * with denied topics on mosquitto ({@link io.qubiq.testkit.mqtt.Mosquitto.Options}), and on HiveMQ
 * the {@link io.qubiq.testkit.mqtt.PublishPolicy} extension, which answers publishes to {@code
 * forbidden/#} with a failure reason code and holds back those to {@code delayed/#}.
 */
package io.qubiq.testkit.mqtt;
