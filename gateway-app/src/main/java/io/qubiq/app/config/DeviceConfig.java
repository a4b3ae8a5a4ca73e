package io.qubiq.app.config;

import io.qubiq.connector.mqtt.MqttConnectionConfig;
import io.qubiq.connector.opcua.OpcUaConnectionConfig;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.SelectedBySection;
import io.qubiq.core.config.Variant;

/**
 * One device connection under {@code devices.<id>}: exactly one protocol section, whose key selects
 * the variant and so the connection's kind. None, two, or an unknown section is a configuration
 * problem naming the kinds. Each variant has a {@code DeviceKind} of the same name in
 * {@code io.qubiq.app.devices.DeviceKinds}; only that kind looks inside its variant.
 *
 * <pre>
 * devices:
 *   plc1:
 *     enabled: true      # false: kept in the file, not run
 *     opcua:
 *       endpoint_url: opc.tcp://plc1:4840
 *       tags: [...]
 * </pre>
 */
@Doc("One device connection: an OPC UA server or an MQTT broker, chosen by its protocol section.")
@SelectedBySection
public sealed interface DeviceConfig {

    /**
     * Whether the connection runs. A disabled connection stays in the file with its settings and
     * tags, but no connector is built for it: it reads nothing and owns no running tags.
     */
    boolean enabled();

    /** The documentation of {@code enabled}, the same in every variant. */
    String ENABLED_DOC = "false keeps the connection in the file with its tags but does not run it (no connector,"
            + " no values); the console's Disable sets it.";

    /** An OPC UA connection, for wiring that builds one in code (the demo plant). */
    static DeviceConfig opcua(OpcUaConnectionConfig opcua) {
        return new OpcUa(opcua, true);
    }

    /** An MQTT connection, for wiring that builds one in code (the demo plant). */
    static DeviceConfig mqtt(MqttConnectionConfig mqtt) {
        return new Mqtt(mqtt, true);
    }

    @Doc("An OPC UA connection.")
    @Variant("opcua")
    record OpcUa(
            @Doc("An OPC UA server (PLC, SCADA). See docs/connectors/opcua.md for every key.")
            OpcUaConnectionConfig opcua,

            @Doc(ENABLED_DOC)
            @Default("true")
            boolean enabled) implements DeviceConfig {
    }

    @Doc("An MQTT connection.")
    @Variant("mqtt")
    record Mqtt(
            @Doc("An MQTT broker whose topics carry device values. See docs/connectors/mqtt.md for every key.")
            MqttConnectionConfig mqtt,

            @Doc(ENABLED_DOC)
            @Default("true")
            boolean enabled) implements DeviceConfig {
    }
}
