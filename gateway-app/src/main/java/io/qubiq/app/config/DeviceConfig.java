package io.qubiq.app.config;

import io.qubiq.connector.mqtt.MqttConnectionConfig;
import io.qubiq.connector.opcua.OpcUaConnectionConfig;
import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Doc;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One device connection under {@code devices.<id>}: exactly one protocol section.
 *
 * <pre>
 * devices:
 *   plc1:
 *     opcua:
 *       endpoint_url: opc.tcp://plc1:4840
 *       tags: [...]
 * </pre>
 */
@Doc("One device connection: exactly one protocol section.")
public record DeviceConfig(
        @Doc("An OPC UA server (PLC, SCADA). See docs/connectors/opcua.md for every key.")
        Optional<OpcUaConnectionConfig> opcua,

        @Doc("An MQTT broker whose topics carry device values. See docs/connectors/mqtt.md for every key.")
        Optional<MqttConnectionConfig> mqtt) implements ConfigChecked {

    /** The protocol name of the section that is set. */
    public String type() {
        return opcua.isPresent() ? "opcua" : mqtt.isPresent() ? "mqtt" : "none";
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        int sections = (opcua.isPresent() ? 1 : 0) + (mqtt.isPresent() ? 1 : 0);
        if (sections != 1) {
            violations.add(new Violation("opcua", "a device connection needs exactly one protocol section"
                    + " (opcua or mqtt), found " + sections));
        }
        return violations;
    }
}
