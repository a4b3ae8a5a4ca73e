package io.qubiq.demoplant;

import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import java.time.Duration;

/** The settings of the simulated plant that {@code qubiq demo} starts; see docs/demo.md. */
@Doc("The simulated plant of the demo: an OPC UA server serving a simulated tank, pump and motor, and an embedded"
        + " MQTT broker to which the plant's energy meter, ambient sensor and remote setpoint publish, both on"
        + " 127.0.0.1.")
public record DemoPlantConfig(
        @Doc("TCP port of the plant's OPC UA server on 127.0.0.1. 0 picks a free port (the endpoint URL is logged).")
        @Default("4840")
        @Range(min = 0, max = 65535)
        int opcuaPort,

        @Doc("TCP port of the plant's embedded MQTT broker on 127.0.0.1. 0 picks a free port (the log names it).")
        @Default("1883")
        @Range(min = 0, max = 65535)
        int mqttPort,

        @Doc("How often the plant publishes its MQTT topics (the OPC UA values change every tick).")
        @Default("1000")
        @Range(min = 10, max = 60000)
        long mqttPublishIntervalMs,

        @Doc("How often the simulation advances and the server's values change.")
        @Default("200")
        @Range(min = 10, max = 10000)
        long tickMs,

        @Doc("Seed of the simulated noise and demand changes; the same seed gives the same run.")
        @Default("1")
        long seed) {

    /** The defaults: OPC UA on port 4840, MQTT on 1883 published every second, a 200 ms tick, seed 1. */
    public static DemoPlantConfig defaults() {
        return new DemoPlantConfig(4840, 1883, 1000, 200, 1);
    }

    /** The same plant with its OPC UA server on another port (0 for a free one). */
    public DemoPlantConfig withOpcuaPort(int port) {
        return new DemoPlantConfig(port, mqttPort, mqttPublishIntervalMs, tickMs, seed);
    }

    /** The same plant with its MQTT broker on another port (0 for a free one). */
    public DemoPlantConfig withMqttPort(int port) {
        return new DemoPlantConfig(opcuaPort, port, mqttPublishIntervalMs, tickMs, seed);
    }

    public Duration tick() {
        return Duration.ofMillis(tickMs);
    }

    /** Every how many ticks the MQTT topics are published: at least every tick. */
    long ticksPerPublish() {
        return Math.max(1, Math.round((double) mqttPublishIntervalMs / tickMs));
    }
}
