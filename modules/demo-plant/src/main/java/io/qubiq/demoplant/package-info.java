/**
 * The simulated plant that {@code qubiq demo} starts, so the demo shows live data from a real OPC
 * UA server and a real MQTT broker without any hardware.
 *
 * <p>{@link io.qubiq.demoplant.PlantModel} simulates a small process on a fixed tick: a tank whose
 * level a PI controller holds at a writable setpoint by moving the inlet valve, a pump with a
 * low-level stop (hysteresis) and a writable permission, a motor whose speed ramps toward a
 * changing demand and whose current and temperature follow the load, its energy meter, drifting
 * product and ambient temperatures, and a production counter. It is deterministic for a seed and
 * testable without a server. {@link io.qubiq.demoplant.SimulatedPlant} is the {@link
 * io.qubiq.core.lifecycle.Component} ({@code demo-plant}) that steps it and serves it on 127.0.0.1:
 * with Eclipse Milo over OPC UA ({@link io.qubiq.demoplant.PlantOpcUaServer}: SecurityPolicy None,
 * anonymous, namespace {@code urn:qubiq:demo-plant}), and as retained JSON messages on an embedded
 * HiveMQ CE broker that admits only a user name and password generated per run ({@link
 * io.qubiq.demoplant.BrokerCredentials}, {@link io.qubiq.demoplant.BrokerAuthentication}; {@link
 * io.qubiq.demoplant.PlantBroker}, {@link io.qubiq.demoplant.PlantMqttPublisher}:
 * topics {@code demo-plant/<device>/<measurement>}, a command topic for the remote level setpoint).
 * {@link io.qubiq.demoplant.SimulatedPlant#nodes()} and {@link io.qubiq.demoplant.SimulatedPlant#topics()}
 * list what it serves, for the connections the application builds. Settings: {@link
 * io.qubiq.demoplant.DemoPlantConfig}. See docs/demo.md.
 *
 * <p>What it writes: nothing outside its own OPC UA server and MQTT broker (whose configuration it
 * keeps in a temporary directory, deleted at stop). Errors: {@code start} fails with a {@link
 * io.qubiq.core.error.ConfigurationException} naming {@code opcua_port} or {@code mqtt_port} when a
 * port is taken (not retriable until the port or the setting changes), and leaves nothing running;
 * client writes outside a setpoint's range or type are refused (Bad_OutOfRange or Bad_TypeMismatch
 * over OPC UA, a WARN line over MQTT) and leave the process unchanged.
 */
package io.qubiq.demoplant;
