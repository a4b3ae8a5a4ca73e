package io.qubiq.config;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import io.qubiq.core.config.Secret;
import io.qubiq.core.config.Variant;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A test-only root record that uses every supported type and annotation. */
@Doc("A gateway as the binder's tests see it.")
record SampleConfig(
        @Doc("Name of this gateway in logs and metrics.") @Default("edge-1") String name,
        @Doc("The HTTP console.") Http http,
        @Doc("The store-and-forward buffer.") Buffer buffer,
        @Doc("Devices to read, by a name of your choice.") @Default("{}") Map<String, Connection> connections,
        @Doc("Where tag values are written.") @Default("[]") List<Sink> sinks,
        @Doc("Labels added to every value.") @Default("[]") List<String> labels,
        @Doc("Site label shown in the console.") Optional<String> site,
        @Doc("Share of values traced.") @Default("0.25") @Range(min = 0, max = 1) double traceRatio) {

    @Doc("HTTP console settings.")
    record Http(
            @Doc("TCP port to listen on.") @Default("8080") @Range(min = 1, max = 65535) int port,
            @Doc("Whether to serve HTTPS.") @Default("false") boolean tlsEnabled,
            @Doc("Keystore for HTTPS.") Optional<Path> keystore,
            @Doc("Password of the admin user.") @Secret @Default("${ADMIN_PASSWORD:-changeme}") String adminPassword) {
    }

    enum Overflow { DROP_OLDEST, BLOCK }

    record Buffer(
            @Doc("Directory of the segment files.") Path directory,
            @Doc("Disk space the buffer may use.") @Default("67108864") @Range(min = 1024) long maxBytes,
            @Doc("What to do when the buffer is full.") @Default("drop_oldest") Overflow overflow,
            @Doc("Level below which reading resumes.") @Default("500") @Range(min = 0, max = 100000) int lowWaterMark,
            @Doc("Level above which reading pauses.") @Default("1000") @Range(min = 1, max = 100000) Integer highWaterMark)
            implements ConfigChecked {

        @Override
        public List<Violation> violations() {
            List<Violation> violations = new ArrayList<>();
            if (lowWaterMark >= highWaterMark) {
                violations.add(new Violation("low_water_mark", "must be below high_water_mark (" + highWaterMark + ")"));
            }
            return violations;
        }
    }

    @Doc("A device connection; `type` selects the protocol.")
    sealed interface Connection permits OpcUa, Mqtt {
    }

    @Doc("An OPC UA server.")
    @Variant("opcua")
    record OpcUa(
            @Doc("Endpoint URL of the server.") String endpointUrl,
            @Doc("How often the server samples.") @Default("1000") @Range(min = 10, max = 3600000) long samplingIntervalMs,
            @Doc("Password, when the server needs one.") @Secret Optional<String> password) implements Connection {
    }

    @Doc("An MQTT broker.")
    @Variant("mqtt")
    record Mqtt(
            @Doc("Broker URL.") String brokerUrl,
            @Doc("Topic filters to subscribe to.") @Default("[\"#\"]") List<String> topics,
            @Doc("Quality of service | 0, 1 or 2.") @Default("1") @Range(min = 0, max = 2) int qos) implements Connection {
    }

    record Sink(
            @Doc("Name in logs and metrics.") String name,
            @Doc("Connection string, with credentials.") @Secret String url,
            @Doc("Extra headers sent with each batch.") @Default("{}") Map<String, String> headers,
            @Doc("How long one batch may take.") @Default("5000") @Range(min = 1) Integer timeoutMs) {
    }
}
