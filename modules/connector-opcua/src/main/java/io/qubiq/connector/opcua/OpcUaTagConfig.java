package io.qubiq.connector.opcua;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import io.qubiq.core.config.Shorthand;
import io.qubiq.core.connector.WriteLimits;
import io.qubiq.core.tag.TagPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;

/**
 * One configured tag: which node it reads, how it is sampled, and how its value is shaped. Settings
 * it leaves out come from the connection's {@link OpcUaTagDefaults} ({@link MonitoringRequest}).
 * Written as a plain node id, it is a tag with every setting left out and its path derived from the
 * node id ({@link TagPathFromNodeId}).
 */
@Doc("A tag read from one OPC UA variable. A plain node id (such as `- ns=2;s=Line1.Speed`) is a tag with"
        + " that node_id and everything else left out.")
@Shorthand("node_id")
public record OpcUaTagConfig(
        @Doc("The gateway tag path the values are published under, such as plant1/oven/temperature. Left out:"
                + " derived from node_id: a string identifier as written, each character a tag path cannot hold"
                + " replaced by _ (ns=2;s=Line1/Oven Temp is Line1/Oven_Temp); any other identifier as ns<index>_"
                + " followed by it (ns=3;i=1001 is ns3_i1001).")
        Optional<String> path,

        @Doc("The variable's node id in OPC UA string form, such as ns=2;s=Temperature or ns=3;i=1001.")
        String nodeId,

        @Doc("How often the server samples the variable (subscription mode). -1 asks for the publishing"
                + " interval; 0 for the fastest the server can. Left out: the connection's"
                + " tag_defaults.sampling_interval_ms.")
        @Range(min = -1, max = 3600000)
        Optional<Long> samplingIntervalMs,

        @Doc("How many samples the server queues between publishes (subscription mode). Left out: the"
                + " connection's tag_defaults.queue_size, or enough for two publishing intervals or one second.")
        @Range(min = 1, max = 10000)
        Optional<Integer> queueSize,

        @Doc("Report a change only when the value moves by at least this much (absolute deadband, in raw"
                + " units). Left out (and no deadband_percent): the connection's tag_defaults; 0: every change.")
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
        @io.qubiq.core.config.Default("false")
        boolean writable,

        @Doc("With writable: the lowest value a write may carry, in the tag's units (after scale). Left out: no"
                + " lower limit. With write_min or write_max, a write must be a number within them, or it is"
                + " refused (400 from the REST API) before reaching the server.")
        Optional<Double> writeMin,

        @Doc("With writable: the highest value a write may carry. Left out: no upper limit.")
        Optional<Double> writeMax) implements ConfigChecked {

    /** A tag without write limits. */
    public OpcUaTagConfig(Optional<String> path, String nodeId, Optional<Long> samplingIntervalMs,
                          Optional<Integer> queueSize, Optional<Double> deadbandAbsolute,
                          Optional<Double> deadbandPercent, Optional<LinearScale> scale,
                          Optional<String> engineeringUnit, boolean writable) {
        this(path, nodeId, samplingIntervalMs, queueSize, deadbandAbsolute, deadbandPercent, scale, engineeringUnit,
                writable, Optional.empty(), Optional.empty());
    }

    /** A tag with its path and its own sampling interval and queue size; for code and tests. */
    public OpcUaTagConfig(String path, String nodeId, long samplingIntervalMs, int queueSize,
                          Optional<Double> deadbandAbsolute, Optional<Double> deadbandPercent,
                          Optional<LinearScale> scale, Optional<String> engineeringUnit, boolean writable) {
        this(Optional.of(path), nodeId, Optional.of(samplingIntervalMs), Optional.of(queueSize), deadbandAbsolute,
                deadbandPercent, scale, engineeringUnit, writable);
    }

    /** A tag with only its path and node id: every monitoring setting from the connection's defaults. */
    public static OpcUaTagConfig of(String path, String nodeId) {
        return new OpcUaTagConfig(Optional.of(path), nodeId, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), false);
    }

    /** The path as written, or derived from the node id. */
    public String pathText() {
        return path.orElseGet(() -> TagPathFromNodeId.derive(nodeId));
    }

    /** The same tag, writable, accepting only values from {@code lowest} to {@code highest}. */
    public OpcUaTagConfig withWriteLimits(double lowest, double highest) {
        return new OpcUaTagConfig(path, nodeId, samplingIntervalMs, queueSize, deadbandAbsolute, deadbandPercent,
                scale, engineeringUnit, true, Optional.of(lowest), Optional.of(highest));
    }

    /** The limits a write's value must keep. */
    public WriteLimits writeLimits() {
        return new WriteLimits(writeMin, writeMax);
    }

    public TagPath tagPath() {
        return TagPath.of(pathText());
    }

    public NodeId node() {
        return NodeId.parse(nodeId);
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        boolean nodeIdValid = NodeId.parseSafe(nodeId).isPresent();
        if (!nodeIdValid) {
            violations.add(new Violation("node_id", "is not an OPC UA node id (expected the form ns=2;s=Name,"
                    + " ns=3;i=1001, ns=1;g=<uuid> or ns=1;b=<base64>), was \"" + nodeId + "\""));
        }
        if (path.isPresent()) {
            TagPath.validate(path.get()).ifPresent(problem -> violations.add(new Violation("path", problem
                    + ", was \"" + path.get() + "\"")));
        } else if (nodeIdValid) {
            TagPath.validate(pathText()).ifPresent(problem -> violations.add(new Violation("path",
                    "cannot be derived from node_id \"" + nodeId + "\" (" + problem + "); write path: explicitly")));
        }
        violations.addAll(OpcUaTagDefaults.deadbandViolations(deadbandAbsolute, deadbandPercent));
        writeLimits().problem().ifPresent(problem -> violations.add(new Violation("write_min", problem)));
        if (writeLimits().any() && !writable) {
            violations.add(new Violation(writeMin.isPresent() ? "write_min" : "write_max", "limits writes, but the"
                    + " tag is not writable: add writable: true, or remove the limit"));
        }
        return violations;
    }
}
