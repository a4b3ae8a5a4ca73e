package io.qubiq.app.config;

import io.qubiq.core.config.ConfigChecked.Violation;
import io.qubiq.pipeline.config.OutputConfig;
import io.qubiq.pipeline.config.PipelineConfig;
import io.qubiq.sink.sql.NamedStatement;
import io.qubiq.sink.sql.SqlRow;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checks that span sections: outbound connection ids, each pipeline output's connection (it
 * exists and is of the output's kind), each SQL statement against its parameter mapping, and each
 * MQTT trigger's device connection. Key paths are relative to the root of the file.
 */
final class PipelineReferences {

    private static final String ID = "[A-Za-z0-9_-]+";
    /** Ids the gateway uses itself for its own channels. */
    private static final Set<String> RESERVED = Set.of("historian", "audit");

    private PipelineReferences() {
    }

    static List<Violation> check(Map<String, DeviceConfig> devices, Map<String, OutboundConfig> outbound,
                                 Map<String, PipelineConfig> pipelines) {
        List<Violation> violations = new ArrayList<>();
        for (String id : outbound.keySet()) {
            if (!id.matches(ID)) {
                violations.add(new Violation("outbound." + id, "a connection id may hold letters, digits, - and _ only"));
            } else if (RESERVED.contains(id)) {
                violations.add(new Violation("outbound." + id, "\"" + id + "\" is the gateway's own channel; pick another id"));
            } else if (devices.containsKey(id)) {
                violations.add(new Violation("outbound." + id, "\"" + id + "\" is already a device connection; ids are"
                        + " shared by device and outbound connections"));
            }
        }
        for (Map.Entry<String, PipelineConfig> pipeline : pipelines.entrySet()) {
            String key = "pipelines." + pipeline.getKey();
            if (!pipeline.getKey().matches(ID)) {
                violations.add(new Violation(key, "a pipeline id may hold letters, digits, - and _ only"));
            }
            pipeline.getValue().trigger().mqtt().ifPresent(trigger -> {
                DeviceConfig device = devices.get(trigger.connection());
                if (device == null || device.mqtt().isEmpty()) {
                    violations.add(new Violation(key + ".trigger.mqtt.connection", "\"" + trigger.connection()
                            + "\" is not an MQTT connection under devices"));
                }
            });
            List<OutputConfig> outputs = pipeline.getValue().outputs();
            for (int i = 0; i < outputs.size(); i++) {
                checkOutput(key + ".outputs[" + i + "]", outputs.get(i), outbound, violations);
            }
        }
        return violations;
    }

    private static void checkOutput(String key, OutputConfig output, Map<String, OutboundConfig> outbound,
                                    List<Violation> violations) {
        OutboundConfig connection = outbound.get(output.connection());
        if (connection == null) {
            violations.add(new Violation(key + ".connection", "no outbound connection \"" + output.connection()
                    + "\"" + (outbound.isEmpty() ? "" : "; the outbound connections are " + String.join(", ",
                    outbound.keySet()))));
            return;
        }
        if (!connection.kind().equals(output.kind())) {
            violations.add(new Violation(key + "." + output.kind(), "connection " + output.connection() + " is a "
                    + connection.kind() + " connection; write a " + connection.kind() + " mapping for it"));
        }
        output.sql().ifPresent(mapping -> {
            NamedStatement statement;
            try {
                statement = NamedStatement.parse(mapping.statement());
            } catch (IllegalArgumentException e) {
                violations.add(new Violation(key + ".sql.statement", e.getMessage()));
                return;
            }
            Set<String> needed = new LinkedHashSet<>(statement.parameterNames());
            needed.remove(SqlRow.ITEM_ID);
            for (String name : needed) {
                if (!mapping.parameters().containsKey(name)) {
                    violations.add(new Violation(key + ".sql.parameters", "the statement uses :" + name
                            + " but parameters has no expression for it"));
                }
            }
            for (String name : mapping.parameters().keySet()) {
                if (!needed.contains(name)) {
                    violations.add(new Violation(key + ".sql.parameters." + name, name.equals(SqlRow.ITEM_ID)
                            ? ":item_id is bound to the event's item id; remove it from parameters"
                            : "the statement has no :" + name));
                }
            }
        });
    }
}
