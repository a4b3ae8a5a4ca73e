package io.qubiq.connector.mqtt;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import io.qubiq.core.connector.WriteLimits;
import io.qubiq.core.tag.TagPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A tag the gateway may write: a write becomes one publish to its command topic. */
@Doc("A tag that accepts writes; each write is published to its command topic.")
public record MqttWritableTagConfig(
        @Doc("The tag path that accepts writes, such as line1/oven/setpoint.")
        String tag,

        @Doc("The topic a write is published to; {tag} stands for the tag path, such as cmd/{tag}."
                + " No wildcards.")
        String commandTopic,

        @Doc("The quality of service of the command publish: 0 (the write is Good once sent), 1 or 2 (Good"
                + " once the broker acknowledged it).")
        @Default("1")
        @Range(min = 0, max = 2)
        int qos,

        @Doc("The payload format of the command: plain (the value as text) or json ({\"value\": ...}).")
        @Default("plain")
        PayloadFormat payload,

        @Doc("Whether the broker retains the command for later subscribers.")
        @Default("false")
        boolean retain,

        @Doc("The lowest value a write may carry. Left out: no lower limit. With min or max, a write must be a"
                + " number within them, or it is refused (400 from the REST API) and nothing is published.")
        Optional<Double> min,

        @Doc("The highest value a write may carry. Left out: no upper limit.")
        Optional<Double> max) implements ConfigChecked {

    /** A writable tag without write limits. */
    public MqttWritableTagConfig(String tag, String commandTopic, int qos, PayloadFormat payload, boolean retain) {
        this(tag, commandTopic, qos, payload, retain, Optional.empty(), Optional.empty());
    }

    public static MqttWritableTagConfig of(String tag, String commandTopic) {
        return new MqttWritableTagConfig(tag, commandTopic, 1, PayloadFormat.PLAIN, false);
    }

    /** The same tag accepting only values from {@code lowest} to {@code highest}. */
    public MqttWritableTagConfig withLimits(double lowest, double highest) {
        return new MqttWritableTagConfig(tag, commandTopic, qos, payload, retain, Optional.of(lowest),
                Optional.of(highest));
    }

    /** The limits a write's value must keep. */
    public WriteLimits limits() {
        return new WriteLimits(min, max);
    }

    public TagPath tagPath() {
        return TagPath.of(tag);
    }

    /** The command topic with {@code {tag}} replaced by the tag path. */
    public String resolvedCommandTopic() {
        return commandTopic.replace("{tag}", tag);
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        TagPath.validate(tag).ifPresent(problem -> violations.add(new Violation("tag", problem)));
        if (TagPath.validate(tag).isEmpty()) {
            TopicTemplate.topicNameProblem(resolvedCommandTopic()).ifPresent(problem ->
                    violations.add(new Violation("command_topic", problem)));
        }
        limits().problem().ifPresent(problem -> violations.add(new Violation("min", problem)));
        return violations;
    }
}
