package io.qubiq.benchmarks.targetrun;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the gateway's YAML for one run (keys of docs/configuration.md, docs/connectors/opcua.md,
 * docs/connectors/mqtt.md, docs/historian.md): the OPC UA connection {@value #OPCUA_ID} with every
 * bench variable as tag {@code opc/V<i>} (100 ms sampling and publishing), the MQTT connection
 * {@value #MQTT_ID} with a persistent session subscribed at QoS 1 to {@code target/#} (tags {@code
 * mqtt/<topic level>}, plain int64 payloads), and the historian storing every sample ({@code mode:
 * always}, so a redelivered value is not hidden by the change filter) into the external QuestDB.
 * Stateless.
 */
final class GatewayConfigWriter {

    static final String OPCUA_ID = "bench-opcua";
    static final String MQTT_ID = "bench-mqtt";
    static final String OPC_PREFIX = "opc/";
    static final String MQTT_PREFIX = "mqtt/";
    static final String TOPIC_PREFIX = "target/";
    static final String GATEWAY_NAME = "target-run";

    private GatewayConfigWriter() {
    }

    /** The bench server's name of variable {@code i} ({@code OpcUaBenchServer}: {@code ns=2;s=V%05d}). */
    static String variable(int i) {
        return String.format("V%05d", i);
    }

    static Path write(Path file, TargetOptions options, String opcUaEndpoint, int mqttPort, int questDbHttpPort)
            throws IOException {
        StringBuilder yaml = new StringBuilder();
        yaml.append("# Written by scripts/target-run (io.qubiq.benchmarks.targetrun.TargetRun) for one run.\n")
                .append("gateway:\n  name: ").append(GATEWAY_NAME).append('\n')
                .append("http:\n  bind_address: 127.0.0.1\n")
                .append("questdb:\n  embedded: false\n  client:\n    address: 127.0.0.1:").append(questDbHttpPort)
                .append('\n')
                .append("historian:\n  default_rule:\n    mode: always\n");
        if (options.historianQueue > 0) {
            yaml.append("  queue_capacity_values: ").append(options.historianQueue).append('\n');
        }
        if (options.historianMaxBytes > 0) {
            yaml.append("  store_and_forward:\n    max_bytes: ").append(options.historianMaxBytes).append('\n');
        }
        yaml
                .append("devices:\n")
                .append("  ").append(MQTT_ID).append(":\n    mqtt:\n")
                .append("      host: 127.0.0.1\n      port: ").append(mqttPort).append('\n')
                .append("      client_id: qubiq-target-run\n      clean_session: false\n")
                .append("      subscriptions:\n")
                .append("        - topic: ").append(TOPIC_PREFIX).append("#\n")
                .append("          qos: 1\n          tag: ").append(MQTT_PREFIX).append("{1}\n")
                .append("          payload: plain\n          data_type: int64\n")
                .append("  ").append(OPCUA_ID).append(":\n    opcua:\n")
                .append("      endpoint_url: ").append(opcUaEndpoint).append('\n')
                .append("      publishing_interval_ms: ").append(options.intervalMs).append('\n')
                .append("      tag_defaults:\n        sampling_interval_ms: ").append(options.intervalMs).append('\n');
        if (options.opcuaQueue > 0) {
            yaml.append("        queue_size: ").append(options.opcuaQueue).append('\n');
        }
        yaml.append("      tags:\n");
        for (int i = 0; i < options.tags; i++) {
            String id = variable(i);
            yaml.append("        - path: ").append(OPC_PREFIX).append(id).append('\n')
                    .append("          node_id: \"ns=2;s=").append(id).append("\"\n");
        }
        Files.writeString(file, yaml.toString(), StandardCharsets.UTF_8);
        return file;
    }
}
