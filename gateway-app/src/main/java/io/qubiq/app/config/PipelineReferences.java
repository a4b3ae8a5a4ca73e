package io.qubiq.app.config;

import io.qubiq.app.devices.DeviceKinds;
import io.qubiq.app.outbound.OutboundKinds;
import io.qubiq.core.config.ConfigChecked.Violation;
import io.qubiq.pipeline.OutboundKind;
import io.qubiq.pipeline.config.OutputConfig;
import io.qubiq.pipeline.config.PipelineConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checks that span sections: outbound connection ids, each pipeline output's connection (it
 * exists and is of the output's kind, and the output passes its kind's own checks), and each
 * MQTT trigger's device connection (its kind can trigger pipelines). Key paths are relative to the root of the file.
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
                if (device == null || !DeviceKinds.of(device).triggersPipelines()) {
                    violations.add(new Violation(key + ".trigger.mqtt.connection", "\"" + trigger.connection()
                            + "\" is not an MQTT connection under devices"));
                } else if (!device.enabled()) {
                    violations.add(new Violation(key + ".trigger.mqtt.connection", "\"" + trigger.connection()
                            + "\" is disabled (devices." + trigger.connection() + ".enabled: false): enable it, or"
                            + " trigger this pipeline from another connection"));
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
        OutboundKind<?, ?, ?> kind = OutboundKinds.of(connection);
        OutboundKind<?, ?, ?> written = OutboundKinds.of(output);
        if (kind != written) {
            violations.add(new Violation(key + "." + written.name(), "connection " + output.connection() + " is a "
                    + kind.name() + " connection; write a " + kind.name() + " mapping for it"));
        }
        kindChecks(written, output).forEach(v -> violations.add(new Violation(key + "." + v.key(), v.message())));
    }

    private static <O extends OutputConfig> List<Violation> kindChecks(OutboundKind<?, O, ?> kind, OutputConfig output) {
        return kind.checkOutput(kind.outputType().cast(output));
    }
}
