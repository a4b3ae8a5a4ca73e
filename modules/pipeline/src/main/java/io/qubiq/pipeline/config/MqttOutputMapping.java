package io.qubiq.pipeline.config;

import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;

/** An MQTT message per event. */
@Doc("Publish one MQTT message per event.")
public record MqttOutputMapping(
        @Doc("Topic template: text with expressions in double braces, such as gateway/{{path}}.")
        String topic,

        @Doc("Expression for the payload: a map or list is sent as JSON, anything else as its text.")
        String payload,

        @Doc("Quality of service: 0 at most once, 1 at least once, 2 exactly once.")
        @Default("1")
        @Range(min = 0, max = 2)
        int qos,

        @Doc("Ask the broker to retain the message for new subscribers.")
        @Default("false")
        boolean retain) {
}
