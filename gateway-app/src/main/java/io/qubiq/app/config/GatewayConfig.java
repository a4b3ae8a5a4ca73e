package io.qubiq.app.config;

import io.qubiq.app.devices.DeviceKinds;
import io.qubiq.audit.AuditConfig;
import io.qubiq.console.HttpConfig;
import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.auth.AuthConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.qubiq.pipeline.config.PipelineConfig;
import java.util.Optional;
import io.qubiq.demoplant.DemoPlantConfig;
import io.qubiq.historian.HistorianConfig;
import io.qubiq.losses.LossesConfig;

/**
 * The root of the gateway's configuration file. Each section is declared by the module that owns
 * it; this record only composes them. docs/configuration.md is generated from this tree.
 */
@Doc("The gateway configuration file.")
public record GatewayConfig(
        @Doc("Who this gateway is.")
        GatewaySettings gateway,

        @Doc("The HTTP server for the console, the API, /health and /metrics.")
        HttpConfig http,

        @Doc("Users, sign-in and roles of the console and API. See docs/security.md.")
        AuthConfig auth,

        @Doc("Start-up and shutdown.")
        LifecycleConfig lifecycle,

        @Doc("Log output: the console and a rolling file in <data-dir>/logs/.")
        LoggingConfig logging,

        @Doc("Free disk space: thresholds and how often it is checked.")
        DiskConfig disk,

        @Doc("Device connections by id (letters, digits, - and _): where tag values come from.")
        @Default("{}")
        Map<String, DeviceConfig> devices,

        @Doc("Outbound connections by id (letters, digits, - and _): destinations that pipelines write to,"
                + " each with its own store-and-forward channel. See docs/pipelines.md.")
        @Default("{}")
        Map<String, OutboundConfig> outbound,

        @Doc("Pipelines by id: a trigger, an optional filter and transforms, and outputs to outbound"
                + " connections. See docs/pipelines.md.")
        @Default("{}")
        Map<String, PipelineConfig> pipelines,

        @Doc("The audit journal of operator actions: its local store, its channel and an optional copy to a"
                + " QuestDB connection. See docs/audit.md.")
        AuditConfig audit,

        @Doc("The loss ledger: every loss of data (where, how many, why, who), kept in <data-dir>/losses/. See"
                + " docs/data-integrity.md.")
        LossesConfig losses,

        @Doc("The QuestDB server the historian writes to (embedded or existing).")
        QuestDbSection questdb,

        @Doc("Tag history in QuestDB; left out, no history is kept. See docs/historian.md.")
        Optional<HistorianConfig> historian,

        @Doc("Start the simulated plant (an OPC UA server and an MQTT broker on 127.0.0.1) and read it as the"
                + " device connections demo-plant and demo-plant-mqtt. Used by qubiq demo; see docs/demo.md.")
        Optional<DemoPlantConfig> demoPlant) implements ConfigChecked {

    /** The same configuration listening on another HTTP port (the --http-port option). */
    public GatewayConfig withHttpPort(int port) {
        return new GatewayConfig(gateway, http.withPort(port), auth, lifecycle, logging, disk, devices,
                outbound, pipelines, audit, losses,
                questdb, historian, demoPlant);
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        Map<String, String> owners = new HashMap<>();
        for (Map.Entry<String, DeviceConfig> device : devices.entrySet()) {
            if (!device.getKey().matches("[A-Za-z0-9_-]+")) {
                violations.add(new Violation("devices." + device.getKey(),
                        "a connection id may hold letters, digits, - and _ only"));
            }
            for (String tag : DeviceKinds.declaredTags(device.getValue())) {
                String owner = owners.putIfAbsent(tag, device.getKey());
                if (owner != null && !owner.equals(device.getKey())) {
                    violations.add(new Violation("devices." + device.getKey(), "tag " + tag
                            + " is already declared by device connection " + owner + "; a tag has one source"));
                }
            }
        }
        violations.addAll(PipelineReferences.check(devices, outbound, pipelines));
        violations.addAll(AuditReferences.check(audit, outbound));
        return violations;
    }
}
