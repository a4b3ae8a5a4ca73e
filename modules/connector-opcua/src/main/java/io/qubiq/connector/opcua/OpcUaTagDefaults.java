package io.qubiq.connector.opcua;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How the tags of one connection are monitored unless a tag says otherwise (subscription mode).
 * The queue rule lives in {@link MonitoringRequest#coveringQueueSize}. Immutable.
 */
@Doc("How the connection's tags are sampled unless a tag sets its own value (subscription mode).")
public record OpcUaTagDefaults(
        @Doc("How often the server samples each variable. -1 asks for the publishing interval; 0 for the"
                + " fastest the server can.")
        @Default("100")
        @Range(min = -1, max = 3600000)
        long samplingIntervalMs,

        @Doc("How many samples the server queues per variable between publishes. Left out: enough for two"
                + " publishing intervals or one second, whichever is more,"
                + " ceil(max(2 x publishing_interval_ms, 1000) / sampling_interval_ms), at least 1 and at most 10000"
                + " (a sampling interval of -1 counts as the publishing interval, 0 as 10 ms); with the defaults"
                + " (100 ms sampling, 500 ms publishing) 10. The second covers a publish that runs late.")
        @Range(min = 1, max = 10000)
        Optional<Integer> queueSize,

        @Doc("Report a change only when the value moves by at least this much (absolute deadband, in raw"
                + " units). Left out: every change.")
        Optional<Double> deadbandAbsolute,

        @Doc("Report a change only when the value moves by this percentage of the variable's EURange.")
        Optional<Double> deadbandPercent) implements ConfigChecked {

    /** The defaults: 100 ms sampling, a queue for two publishing intervals or a second, no deadband. */
    public static final OpcUaTagDefaults STANDARD =
            new OpcUaTagDefaults(100, Optional.empty(), Optional.empty(), Optional.empty());

    @Override
    public List<Violation> violations() {
        return deadbandViolations(deadbandAbsolute, deadbandPercent);
    }

    static List<Violation> deadbandViolations(Optional<Double> absolute, Optional<Double> percent) {
        List<Violation> violations = new ArrayList<>();
        if (absolute.isPresent() && percent.isPresent()) {
            violations.add(new Violation("deadband_percent", "cannot be combined with deadband_absolute; choose one"));
        }
        absolute.filter(d -> d < 0).ifPresent(d ->
                violations.add(new Violation("deadband_absolute", "must not be negative, was " + d)));
        percent.filter(d -> d < 0 || d > 100).ifPresent(d ->
                violations.add(new Violation("deadband_percent", "must be between 0 and 100, was " + d)));
        return violations;
    }
}
