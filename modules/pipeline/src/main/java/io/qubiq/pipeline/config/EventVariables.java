package io.qubiq.pipeline.config;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The variables an event offers its expressions, by trigger kind. Every event has {@code pipeline}
 * (the pipeline's id), {@code now} (when the event was handled) and {@code item_id} (unique per
 * event, the same for all its outputs and kept across retries).
 * <ul>
 *   <li>tags: {@code path}, {@code value}, {@code quality} (GOOD, UNCERTAIN or BAD), {@code good},
 *   {@code type}, {@code source_time}, {@code server_time};</li>
 *   <li>interval: nothing more (read tags with {@code tag('path')});</li>
 *   <li>mqtt: {@code topic}, {@code payload} (text), {@code json} (the payload parsed as JSON, or
 *   null).</li>
 * </ul>
 */
public final class EventVariables {

    public static final Set<String> COMMON = Set.of("pipeline", "now", "item_id");
    public static final Set<String> TAG = Set.of("path", "value", "quality", "good", "type", "source_time",
            "server_time");
    public static final Set<String> MQTT = Set.of("topic", "payload", "json");

    private EventVariables() {
    }

    public static Set<String> of(TriggerConfig.Kind kind) {
        Set<String> names = new LinkedHashSet<>(COMMON);
        switch (kind) {
            case TAGS -> names.addAll(TAG);
            case MQTT -> names.addAll(MQTT);
            case INTERVAL -> { }
        }
        return names;
    }
}
