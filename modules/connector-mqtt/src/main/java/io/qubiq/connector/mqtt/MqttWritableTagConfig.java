package io.qubiq.connector.mqtt;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import io.qubiq.core.tag.TagPath;
import java.util.ArrayList;
import java.util.List;

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
        boolean retain) implements ConfigChecked {

    public static MqttWritableTagConfig of(String tag, String commandTopic) {
        return new MqttWritableTagConfig(tag, commandTopic, 1, PayloadFormat.PLAIN, false);
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
        return violations;
    }
}
