package io.qubiq.connector.opcua;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import io.qubiq.core.tag.TagPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;

/** One configured tag: which node it reads, how it is sampled, and how its value is shaped. */
@Doc("A tag read from one OPC UA variable.")
public record OpcUaTagConfig(
        @Doc("The gateway tag path the values are published under, such as plant1/oven/temperature.")
        String path,

        @Doc("The variable's node id in OPC UA string form, such as ns=2;s=Temperature or ns=3;i=1001.")
        String nodeId,

        @Doc("How often the server samples the variable (subscription mode). -1 asks for the publishing"
                + " interval; 0 for the fastest the server can.")
        @Default("500")
        @Range(min = -1, max = 3600000)
        long samplingIntervalMs,

        @Doc("How many samples the server queues between publishes (subscription mode).")
        @Default("1")
        @Range(min = 1, max = 10000)
        int queueSize,

        @Doc("Report a change only when the value moves by at least this much (absolute deadband, in raw"
                + " units). Left out: every change.")
        Optional<Double> deadbandAbsolute,

        @Doc("Report a change only when the value moves by this percentage of the variable's EURange"
                + " (the server must define EURange).")
        Optional<Double> deadbandPercent,

        @Doc("Linear scaling from raw to engineering units; the published value is then a float64.")
        Optional<LinearScale> scale,

        @Doc("The engineering unit shown with the tag, such as degC.")
        Optional<String> engineeringUnit,

        @Doc("Whether the gateway may write this tag to the device. Writes to other tags are rejected"
                + " before reaching the server.")
        @Default("false")
        boolean writable) implements ConfigChecked {

    public TagPath tagPath() {
        return TagPath.of(path);
    }

    public NodeId node() {
        return NodeId.parse(nodeId);
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        TagPath.validate(path).ifPresent(problem -> violations.add(new Violation("path", problem)));
        if (NodeId.parseSafe(nodeId).isEmpty()) {
            violations.add(new Violation("node_id", "is not an OPC UA node id (expected the form ns=2;s=Name,"
                    + " ns=3;i=1001, ns=1;g=<uuid> or ns=1;b=<base64>), was \"" + nodeId + "\""));
        }
        if (deadbandAbsolute.isPresent() && deadbandPercent.isPresent()) {
            violations.add(new Violation("deadband_percent", "cannot be combined with deadband_absolute; choose one"));
        }
        deadbandAbsolute.filter(d -> d < 0).ifPresent(d ->
                violations.add(new Violation("deadband_absolute", "must not be negative, was " + d)));
        deadbandPercent.filter(d -> d < 0 || d > 100).ifPresent(d ->
                violations.add(new Violation("deadband_percent", "must be between 0 and 100, was " + d)));
        return violations;
    }
}
