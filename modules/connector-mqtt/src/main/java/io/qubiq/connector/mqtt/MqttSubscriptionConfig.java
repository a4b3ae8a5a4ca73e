package io.qubiq.connector.mqtt;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import io.qubiq.core.tag.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** One subscription: a topic filter, the tag (or tag template) its messages become, and the payload format. */
@Doc("A topic filter whose messages become tag values.")
public record MqttSubscriptionConfig(
        @Doc("The topic filter to subscribe to; + matches one topic level, # (last) any number of levels,"
                + " such as plant/+/line1/#.")
        String topic,

        @Doc("The quality of service of the subscription: 0 (at most once), 1 (at least once) or 2 (exactly once).")
        @Default("1")
        @Range(min = 0, max = 2)
        int qos,

        @Doc("The tag path the values are published under. For a topic with wildcards, a template where {1},"
                + " {2}, ... stand for the topic levels matched by the first, second, ... wildcard, such as"
                + " plant/{1}/{2} (a # places every level it matched, separated by /).")
        String tag,

        @Doc("The payload format: plain (the whole payload is the value) or json (the value sits at value_path).")
        @Default("plain")
        PayloadFormat payload,

        @Doc("The type of the values: boolean, int32, int64, float32, float64, string or datetime.")
        @Default("float64")
        DataType dataType,

        @Doc("json only: where the value sits, such as $.data.value or data.value (fields separated by .,"
                + " [n] for an array element).")
        Optional<String> valuePath,

        @Doc("json only: where the source timestamp sits (ISO-8601 text with a zone, or epoch milliseconds)."
                + " Left out, or absent from a message: the time the gateway received it.")
        Optional<String> timestampPath,

        @Doc("json only: where the quality sits: true/false, good/uncertain/bad, an OPC UA status name such"
                + " as BadSensorFailure, or a numeric OPC UA status code. Left out: Good.")
        Optional<String> qualityPath) implements ConfigChecked {

    public static MqttSubscriptionConfig plain(String topic, String tag, DataType type) {
        return new MqttSubscriptionConfig(topic, 1, tag, PayloadFormat.PLAIN, type, Optional.empty(), Optional.empty(),
                Optional.empty());
    }

    public static MqttSubscriptionConfig json(String topic, String tag, DataType type, String valuePath,
                                              Optional<String> timestampPath, Optional<String> qualityPath) {
        return new MqttSubscriptionConfig(topic, 1, tag, PayloadFormat.JSON, type, Optional.of(valuePath),
                timestampPath, qualityPath);
    }

    public MqttSubscriptionConfig withQos(int value) {
        return new MqttSubscriptionConfig(topic, value, tag, payload, dataType, valuePath, timestampPath, qualityPath);
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        Optional<String> filterProblem = TopicTemplate.filterProblem(topic);
        filterProblem.ifPresent(problem -> violations.add(new Violation("topic", problem)));
        if (filterProblem.isEmpty()) {
            TopicTemplate.templateProblem(topic, tag).ifPresent(problem -> violations.add(new Violation("tag", problem)));
        }
        if (payload == PayloadFormat.JSON) {
            if (valuePath.isEmpty()) {
                violations.add(new Violation("value_path", "is required with payload json (such as $.value)"));
            }
            valuePath.flatMap(JsonPathReader::problem)
                    .ifPresent(p -> violations.add(new Violation("value_path", p)));
            timestampPath.flatMap(JsonPathReader::problem)
                    .ifPresent(p -> violations.add(new Violation("timestamp_path", p)));
            qualityPath.flatMap(JsonPathReader::problem)
                    .ifPresent(p -> violations.add(new Violation("quality_path", p)));
        } else {
            valuePath.ifPresent(p -> violations.add(new Violation("value_path", "only applies to payload json")));
            timestampPath.ifPresent(p -> violations.add(new Violation("timestamp_path", "only applies to payload json")));
            qualityPath.ifPresent(p -> violations.add(new Violation("quality_path", "only applies to payload json")));
        }
        return violations;
    }
}
