package io.qubiq.pipeline.config;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import io.qubiq.tagbus.TagPattern;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** What starts a pipeline: exactly one of tag changes, a timer, or MQTT messages. */
@Doc("What starts the pipeline: exactly one of tags, interval_ms or mqtt.")
public record TriggerConfig(
        @Doc("Tag paths or patterns (* within one segment, ** across segments; a plain path also matches the"
                + " tags beneath it). Each new value of a matching tag is one event.")
        Optional<List<String>> tags,

        @Doc("Run every this many milliseconds; each run is one event. Read tags with tag('path').")
        @Range(min = 100, max = 604800000)
        Optional<Long> intervalMs,

        @Doc("Each message on a topic filter of an MQTT device connection is one event.")
        Optional<MqttTriggerConfig> mqtt) implements ConfigChecked {

    /** The kind of trigger that is set. */
    public enum Kind { TAGS, INTERVAL, MQTT }

    public Kind kind() {
        return tags.isPresent() ? Kind.TAGS : intervalMs.isPresent() ? Kind.INTERVAL : Kind.MQTT;
    }

    /** A short description for logs and the API: {@code tags line1/**}, {@code every 60000 ms}. */
    public String describe() {
        return switch (kind()) {
            case TAGS -> "tags " + String.join(", ", tags.orElseThrow());
            case INTERVAL -> "every " + intervalMs.orElseThrow() + " ms";
            case MQTT -> "mqtt " + mqtt.orElseThrow().connection() + " " + mqtt.orElseThrow().topic();
        };
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        int set = (tags.isPresent() ? 1 : 0) + (intervalMs.isPresent() ? 1 : 0) + (mqtt.isPresent() ? 1 : 0);
        if (set != 1) {
            violations.add(new Violation("tags", "a trigger needs exactly one of tags, interval_ms or mqtt, found " + set));
        }
        tags.ifPresent(patterns -> {
            if (patterns.isEmpty()) {
                violations.add(new Violation("tags", "list at least one tag path or pattern"));
            }
            for (int i = 0; i < patterns.size(); i++) {
                int index = i;
                TagPattern.problemWith(patterns.get(i))
                        .ifPresent(problem -> violations.add(new Violation("tags[" + index + "]", problem)));
            }
        });
        mqtt.ifPresent(message -> {
            String filter = message.topic();
            if (filter.isEmpty() || (filter.contains("#") && !(filter.endsWith("#")
                    && (filter.length() == 1 || filter.endsWith("/#"))))) {
                violations.add(new Violation("mqtt.topic", "\"" + filter + "\" is not a valid MQTT topic filter:"
                        + " # may only stand alone as the last level"));
            }
        });
        return violations;
    }
}
