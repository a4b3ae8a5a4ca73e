/**
 * Real MQTT brokers for tests: {@link io.qubiq.testkit.mqtt.TestMqttBroker} (embedded HiveMQ CE on a
 * free loopback port, stop and restart on the same port with its sessions kept in file persistence),
 * {@link io.qubiq.testkit.mqtt.MqttBrokerExtension}, which starts one per test class, and {@link
 * io.qubiq.testkit.mqtt.Mosquitto}, Debian's broker as a child process when {@code /usr/sbin/mosquitto}
 * is installed.
 */
package io.qubiq.testkit.mqtt;
